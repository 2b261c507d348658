// Self-play games of the native UCT (opponents/uct.cpp, included whole so that the games are
// played by the very searcher the ladder uses), for learning an evaluation offline.
//
// Reads one board a line on stdin, "M N noX noY seed", as knowledge/generate.py draws them
// with the arena's board generator, and writes one game a line on stdout:
//
//   M N noX noY winner | c0 c1 c2 ... | v0 v1 v2 ...
//
// winner: 1 the first mover, 2 the second, 0 a draw. c_i: the column of ply i. v_i: the
// searching side's value of the position before ply i in percent (the most visited root
// move's mean play-out score), 100 or 0 where the position is settled by the rules (a win
// now, two threats to block), -1 where no search ran (a single move, or a random opening ply).
//
// Usage: selfplay PLAYOUTS RANDOM_PLIES
//   PLAYOUTS      play-outs a searched move (the UCT's cap; no clock, so games are repeatable)
//   RANDOM_PLIES  the first plies are drawn uniformly from the rules' safe moves, so that
//                 games of one board differ from the opening on
//
// Build: g++ -std=c++11 -O2 -o build/knowledge/selfplay knowledge/selfplay.cpp

#include <cstdio>
#include <string>

#include "../opponents/uct.cpp"

namespace {

struct Game {
  int winner = 0;
  std::vector<int> columns;
  std::vector<int> values;
};

Game play(int M, int N, int noX, int noY, uint64_t seed, long long playouts, int random_plies) {
  Geometry g(M, N, noX, noY);
  Position pos{&g, bb_zero(), bb_zero()};
  Rng rng(mix(seed + 1));
  Game game;
  auto never = std::chrono::steady_clock::now() + std::chrono::hours(24);
  for (int ply = 0;; ++ply) {
    Options o = options(pos);
    if (o.situation == kFull) return game;
    uint16_t moves = column_set(o.moves, g);
    int col, value = -1;
    if (o.situation == kCanWin) {
      col = __builtin_ctz(moves);
      value = 100;
    } else if (o.situation == kLost || __builtin_popcount(moves) == 1) {
      col = random_column(moves, rng);
      if (o.situation == kLost) value = 0;
    } else if (ply < random_plies) {
      col = random_column(moves, rng);
    } else {
      Search search(g, pos, mix(seed ^ uint64_t(ply) * 0x9E3779B97F4A7C15ULL), 0.7);
      col = search.run(never, playouts);
      value = int(search.root_value() * 100.0 + 0.5);
    }
    BB cell = pos.possible() & g.column[col];
    bool wins = any(cell & pos.my_wins());
    game.columns.push_back(col);
    game.values.push_back(value);
    pos.play(cell);
    if (wins) {
      game.winner = ply % 2 == 0 ? 1 : 2;
      return game;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: selfplay PLAYOUTS RANDOM_PLIES < boards\n");
    return 2;
  }
  long long playouts = std::atoll(argv[1]);
  int random_plies = std::atoi(argv[2]);
  int M, N, noX, noY;
  unsigned long long seed;
  while (std::scanf("%d %d %d %d %llu", &M, &N, &noX, &noY, &seed) == 5) {
    if (M < 4 || M > 12 || N < 4 || N > 12 || noX < 0 || noX >= M || noY < 0 || noY >= N) {
      std::fprintf(stderr, "selfplay: bad board %d %d %d %d\n", M, N, noX, noY);
      return 2;
    }
    Game game = play(M, N, noX, noY, seed, playouts, random_plies);
    std::string line = std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(noX) +
                       " " + std::to_string(noY) + " " + std::to_string(game.winner) + " |";
    for (int c : game.columns) line += " " + std::to_string(c);
    line += " |";
    for (int v : game.values) line += " " + std::to_string(v);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  return 0;
}
