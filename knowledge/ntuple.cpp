// An n-tuple network learned by temporal differences in self-play (Thill, Bagheri, Koch and
// Konen 2012/2014), for boards of every shape the course draws.
//
// The value of a position is P(first mover wins) = sigmoid(bias[ply] + sum of weights), one
// weight for each placement of each tuple shape: six cells at fixed offsets, placed at every
// anchor where all six are on the board and none is the forbidden cell, and mirrored left to
// right (the mirror reads the same table), so one set of weights serves 9..12 x 9..12 and any
// forbidden cell. Each cell is in one of six states seen from the first mover, as in
// knowledge/features.py: empty and the first (0) or the second (1) mover's under follow-up
// play, the same plus 2 when playable now, or a piece of the first (4) or second (5) mover.
//
// Self-play: the side to move wins at once if it can, blocks a single threat, never plays
// under the opponent's winning cell when it has another move (opponents/uct.cpp's rules), and
// otherwise plays the move of the best value, or with chance EPSILON a random one. After each
// game every position moves toward its lambda-return (the offline forward view of TD(lambda)).
//
// Usage: ntuple WEIGHTS GAMES [SEED] [LR] [LAMBDA] [EPSILON]
//   WEIGHTS  file to write (and to resume from when it exists); rewritten every 20,000 games
//   GAMES    games to play in this run
//
// File: "NTUP" int32 version=1, int32 shapes, int32 cells, int64 games played, then for each
// shape `cells` pairs int32 (rows up, columns right), then BANDS*2 float32 biases (by ply band
// and side to move), then shapes * 6^cells float32 weights.
//
// Build: g++ -std=c++11 -O2 -o build/knowledge/ntuple knowledge/ntuple.cpp

#include <cstdio>
#include <cstring>
#include <string>

#include "../opponents/uct.cpp"

namespace {

const int kCells = 6;
const int kTable = 6 * 6 * 6 * 6 * 6 * 6;
const int kBands = 16;  // bias by ply / 10
const int kShapes = 10;
const int kShape[kShapes][kCells][2] = {
    {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}},  // 2 x 3 block
    {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}},  // 3 x 2 block
    {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}},  // a row of six
    {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {0, 1}, {1, 2}},  // a diagonal and the cells beside it
    {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}},  // a column of four and two beside
    {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}, {2, 3}},  // a staircase
    {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {0, 1}, {0, 2}},  // a row of four over two
    {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {1, 0}, {2, 1}},  // a diagonal and the cells above it
    {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}},  // a diagonal of six
    {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}},  // a row of four under two
};

struct Net {
  std::vector<float> bias = std::vector<float>(kBands * 2, 0.0f);
  std::vector<float> w = std::vector<float>(size_t(kShapes) * kTable, 0.0f);
  long long games = 0;
};

// The placements of every shape on one board, and for each cell the placements through it.
struct Layout {
  int M, N;
  std::vector<int> table;              // placement -> offset of its shape's table in Net::w
  std::vector<std::vector<int>> cells;  // placement -> its cells (h * 12 + y), in shape order
  std::vector<std::vector<std::pair<int, int>>> through;  // cell -> (placement, 6^k)

  Layout(int M, int N, int forb) : M(M), N(N), through(144) {
    for (int s = 0; s < kShapes; ++s)
      for (int mirror = 0; mirror < 2; ++mirror)
        for (int h0 = 0; h0 < M; ++h0)
          for (int y0 = 0; y0 < N; ++y0) {
            std::vector<int> c;
            for (int k = 0; k < kCells; ++k) {
              int h = h0 + kShape[s][k][0];
              int y = y0 + (mirror ? -kShape[s][k][1] : kShape[s][k][1]);
              if (h < 0 || h >= M || y < 0 || y >= N || h * 12 + y == forb) break;
              c.push_back(h * 12 + y);
            }
            if (int(c.size()) < kCells) continue;
            int p = int(table.size());
            table.push_back(s * kTable);
            int pow = 1;
            for (int k = 0; k < kCells; ++k, pow *= 6) through[c[k]].push_back({p, pow});
            cells.push_back(c);
          }
  }
};

// A game in progress: the cells' states, each placement's index, and the weights' sum.
struct State {
  const Layout* L;
  const Net* net;
  std::vector<int> code;
  std::vector<int> idx;
  double sum;

  State(const Layout* L, const Net* net) : L(L), net(net), code(144, 0), sum(0) {}

  void set(int cell, int c) {
    int d = c - code[cell];
    code[cell] = c;
    for (auto& pp : L->through[cell]) {
      int p = pp.first;
      int t = L->table[p];
      sum -= net->w[t + idx[p]];
      idx[p] += d * pp.second;
      sum += net->w[t + idx[p]];
    }
  }
};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

int band(int ply) { return std::min(ply / 10, kBands - 1); }

struct Trainer {
  Net net;
  double lr, lambda, epsilon;
  Rng rng;
  double err_sum = 0;
  long long err_n = 0, first_wins = 0, played = 0;

  Trainer(double lr, double lambda, double epsilon, uint64_t seed)
      : lr(lr), lambda(lambda), epsilon(epsilon), rng(mix(seed + 7)) {}

  // One game: a self-play game on a board drawn as the course draws them, or, with `script`,
  // the recorded game "M N noX noY winner | columns | ..." replayed.
  void game(const char* script = nullptr) {
    int M = 9 + rng.below(4), N = 9 + rng.below(4);
    int noX = rng.below(M), noY = rng.below(N);
    int winner = -1;
    std::vector<int> columns;
    if (script) {
      int used = 0;
      if (std::sscanf(script, "%d %d %d %d %d |%n", &M, &N, &noX, &noY, &winner, &used) != 5)
        return;
      const char* c = script + used;
      int col, n;
      while (std::sscanf(c, "%d%n", &col, &n) == 1) {
        columns.push_back(col);
        c += n;
      }
    }
    Geometry g(M, N, noX, noY);
    Position pos{&g, bb_zero(), bb_zero()};
    int fh = M - 1 - noX, forb = fh * 12 + noY, total = M * N - 1;
    Layout L(M, N, forb);
    State st(&L, &net);
    st.idx.assign(L.table.size(), 0);
    std::vector<int> height(N, 0);
    for (int y = 0; y < N; ++y) {
      for (int h = 0; h < M; ++h) {
        if (h * 12 + y == forb) continue;
        int r = h - (y == noY && h > fh ? 1 : 0);
        st.code[h * 12 + y] = (r + total) % 2;
      }
      if (y == noY && fh == 0) height[y] = 1;
    }
    for (size_t p = 0; p < L.cells.size(); ++p) {
      int pow = 1, i = 0;
      for (int k = 0; k < kCells; ++k, pow *= 6) i += st.code[L.cells[p][k]] * pow;
      st.idx[p] = i;
    }
    st.sum = 0;
    for (size_t p = 0; p < L.cells.size(); ++p) st.sum += net.w[L.table[p] + st.idx[p]];
    for (int y = 0; y < N; ++y)
      if (height[y] < M) st.set(height[y] * 12 + y, st.code[height[y] * 12 + y] + 2);

    std::vector<std::vector<int>> seen;  // each position's placement indices
    std::vector<double> value;           // its value when reached
    std::vector<int> plies;
    double reward = 0.5;
    for (int ply = 0;; ++ply) {
      Options o = options(pos);
      if (o.situation == kFull) break;
      seen.push_back(st.idx);
      value.push_back(sigmoid(st.sum + net.bias[band(ply) * 2 + ply % 2]));
      plies.push_back(ply);
      uint16_t moves = column_set(o.moves, g);
      int col;
      if (script && ply == int(columns.size())) {
        break;
      } else if (o.situation == kCanWin) {
        reward = ply % 2 == 0 ? 1.0 : 0.0;
        break;
      } else if (o.situation == kLost) {
        reward = ply % 2 == 0 ? 0.0 : 1.0;
        break;
      } else if (script) {
        col = columns[ply];
      } else if (__builtin_popcount(moves) == 1 || ply < 2 ||
                 rng.below(1000) < int(epsilon * 1000)) {
        col = random_column(moves, rng);
      } else {
        double best = -1e9;
        col = -1;
        for (int y = 0; y < N; ++y) {
          if (!(moves >> y & 1)) continue;
          double s = after(st, height, y, ply, fh, noY, M);
          double v = ply % 2 == 0 ? s : -s;
          if (v > best) best = v, col = y;
        }
      }
      move(st, height, col, ply, fh, noY, M);
      pos.play(pos.possible() & g.column[col]);
    }
    if (script) reward = winner == 1 ? 1.0 : winner == 2 ? 0.0 : 0.5;
    if (reward == 1.0) ++first_wins;
    ++played;
    // lambda-returns, backwards: G_T = reward, G_t = (1 - lambda) V(s_{t+1}) + lambda G_{t+1}
    double G = reward;
    for (int t = int(seen.size()) - 1; t >= 0; --t) {
      double next = t + 1 < int(seen.size()) ? value[t + 1] : reward;
      G = t + 1 < int(seen.size()) ? (1 - lambda) * next + lambda * G : reward;
      double s = net.bias[band(plies[t]) * 2 + plies[t] % 2];
      for (size_t p = 0; p < seen[t].size(); ++p) s += net.w[L.table[p] + seen[t][p]];
      double delta = G - sigmoid(s);
      err_sum += delta * delta;
      ++err_n;
      float step = float(lr * delta / double(seen[t].size()));
      for (size_t p = 0; p < seen[t].size(); ++p) net.w[L.table[p] + seen[t][p]] += step;
      net.bias[band(plies[t]) * 2 + plies[t] % 2] += float(lr * 0.01 * delta);
    }
    ++net.games;
  }

  // Drops a piece of the side to move into column y: the cell takes the piece, the next free
  // cell above it (the forbidden cell skipped) becomes playable.
  static void move(State& st, std::vector<int>& height, int y, int ply, int fh, int noY, int M) {
    int h = height[y];
    st.set(h * 12 + y, 4 + ply % 2);
    ++h;
    if (y == noY && h == fh) ++h;
    height[y] = h;
    if (h < M) st.set(h * 12 + y, st.code[h * 12 + y] + 2);
  }

  // The weights' sum after a move in column y, the state left as it was.
  double after(State& st, std::vector<int>& height, int y, int ply, int fh, int noY, int M) {
    int h0 = height[y];
    int c0 = st.code[h0 * 12 + y];
    move(st, height, y, ply, fh, noY, M);
    int h1 = height[y];
    double s = st.sum + net.bias[band(ply + 1) * 2 + (ply + 1) % 2];
    if (h1 < M) st.set(h1 * 12 + y, st.code[h1 * 12 + y] - 2);
    st.set(h0 * 12 + y, c0);
    height[y] = h0;
    return s;
  }
};

bool load(const char* path, Net& net) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  char magic[4];
  int32_t head[3];
  int64_t games;
  bool ok = std::fread(magic, 1, 4, f) == 4 && std::memcmp(magic, "NTUP", 4) == 0 &&
            std::fread(head, 4, 3, f) == 3 && head[0] == 1 && head[1] == kShapes &&
            head[2] == kCells && std::fread(&games, 8, 1, f) == 1;
  std::vector<int32_t> shapes(kShapes * kCells * 2);
  ok = ok && std::fread(shapes.data(), 4, shapes.size(), f) == shapes.size();
  for (int i = 0; ok && i < kShapes * kCells * 2; ++i)
    ok = shapes[i] == kShape[i / (kCells * 2)][(i / 2) % kCells][i % 2];
  ok = ok && std::fread(net.bias.data(), 4, net.bias.size(), f) == net.bias.size() &&
       std::fread(net.w.data(), 4, net.w.size(), f) == net.w.size();
  std::fclose(f);
  if (!ok) {
    std::fprintf(stderr, "ntuple: %s is not this program's weights file\n", path);
    std::exit(2);
  }
  net.games = games;
  return true;
}

void save(const char* path, const Net& net) {
  std::string tmp = std::string(path) + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "ntuple: cannot write %s\n", tmp.c_str());
    std::exit(2);
  }
  int32_t head[3] = {1, kShapes, kCells};
  int64_t games = net.games;
  std::fwrite("NTUP", 1, 4, f);
  std::fwrite(head, 4, 3, f);
  std::fwrite(&games, 8, 1, f);
  for (int s = 0; s < kShapes; ++s)
    for (int k = 0; k < kCells; ++k)
      for (int d = 0; d < 2; ++d) {
        int32_t v = kShape[s][k][d];
        std::fwrite(&v, 4, 1, f);
      }
  std::fwrite(net.bias.data(), 4, net.bias.size(), f);
  std::fwrite(net.w.data(), 4, net.w.size(), f);
  if (std::fclose(f) != 0 || std::rename(tmp.c_str(), path) != 0) {
    std::fprintf(stderr, "ntuple: cannot write %s\n", path);
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 7) {
    std::fprintf(stderr, "usage: ntuple WEIGHTS GAMES [SEED] [LR] [LAMBDA] [EPSILON]\n");
    return 2;
  }
  const char* path = argv[1];
  long long games = std::atoll(argv[2]);  // 0: replay the games on stdin instead
  uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  double lr = argc > 4 ? std::atof(argv[4]) : 0.5;
  double lambda = argc > 5 ? std::atof(argv[5]) : 0.5;
  double epsilon = argc > 6 ? std::atof(argv[6]) : 0.1;
  Trainer t(lr, lambda, epsilon, seed);
  load(path, t.net);
  t.rng = Rng(mix(seed + uint64_t(t.net.games) * 0x9E3779B97F4A7C15ULL));
  auto start = std::chrono::steady_clock::now();
  if (games == 0) {
    char line[4096];
    long long n = 0;
    while (std::fgets(line, sizeof line, stdin)) {
      t.game(line);
      if (++n % 2000 == 0)
        std::fprintf(stderr, "%lld replayed, td error %.4f\n", n, t.err_sum / std::max(1LL, t.err_n));
    }
    save(path, t.net);
    return 0;
  }
  for (long long i = 1; i <= games; ++i) {
    t.game();
    if (i % 2000 == 0 || i == games) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%lld games (%lld in all), %.0f a second, first mover %.1f%%, "
                   "td error %.4f\n", i, t.net.games, i / s, 100.0 * t.first_wins / t.played,
                   t.err_sum / std::max(1LL, t.err_n));
      t.err_sum = 0, t.err_n = 0, t.first_wins = 0, t.played = 0;
    }
    if (i % 20000 == 0 || i == games) save(path, t.net);
  }
  return 0;
}
