// Native UCT sparring partner: the strongest member of the opponent ladder.
//
// It stands in for the course's strongest sample (100.so): a plain UCT whose play-outs are
// tactical (win now, block now, never play directly under the opponent's winning cell). With
// such play-outs about ten thousand play-outs a move already reach even terms with 100.so,
// while uniformly random play-outs do not get there even at a million (shared/FACTS.md).
//
// ABI: the course's getPoint/clearPoint (shared/RULES.md), board from the callee's view
// (2 own, 1 opponent, 0 empty or forbidden). Stateless: every call rebuilds from top/board, so
// one loaded library can serve any number of games. Never writes to stdout.
//
// Budget, read from the environment at every call:
//   UCT_TIME      seconds per move (default 2.6, like 100.so); the clock starts at entry
//   UCT_PLAYOUTS  cap on play-outs per move (default: none); whichever ends first stops search
//   UCT_SEED      fixed seed (mixed with the position, so a capped search is repeatable)
//   UCT_C         UCB1 exploration constant (default 0.7)
//
// Build: g++ -std=c++11 -O2 -fpic -shared -o build/opponents/uct.so opponents/uct.cpp
//
// Bit layout (Pons-style): column y holds bits y*H .. y*H+M-1 with H = M+1, bit y*H+r is the
// cell r rows above the bottom (course row x = M-1-r); bit y*H+M is an always-empty sentinel
// that stops lines from wrapping between columns. 12 columns of 13 bits need 156 bits, so a
// board is three 64-bit words. A 9x9 board (H = 10) and a 12x12 board (H = 13):
//
//   9x9                                 12x12
//   .  .  .  .  .  .  .  .  .           .  .  .  .  .  .  .  .  .  .  .  .      <- sentinels
//   8 18 28 38 48 58 68 78 88          12 25 38 51 64 77 90 103 116 129 142 155
//   ...                                 ...
//   1 11 21 31 41 51 61 71 81           1 14 27 40 53 66 79 92 105 118 131 144
//   0 10 20 30 40 50 60 70 80           0 13 26 39 52 65 78 91 104 117 130 143  <- bottom row
//
// The forbidden cell is a bit of `forb`: it counts as filled when finding the next free cell of
// its column (so the carry of `filled + bottom` skips it) and belongs to nobody, so no line
// runs through it.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

class Point {
 public:
  int x;
  int y;
  Point(int x, int y) : x(x), y(y) {}
};

namespace {

struct BB {
  uint64_t w[3];
};

inline BB bb_zero() { return BB{{0, 0, 0}}; }
inline BB operator&(BB a, BB b) { return BB{{a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2]}}; }
inline BB operator|(BB a, BB b) { return BB{{a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2]}}; }
inline BB operator^(BB a, BB b) { return BB{{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2]}}; }
inline BB operator~(BB a) { return BB{{~a.w[0], ~a.w[1], ~a.w[2]}}; }
inline bool any(BB a) { return (a.w[0] | a.w[1] | a.w[2]) != 0; }
inline int popcount(BB a) {
  return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) +
         __builtin_popcountll(a.w[2]);
}

// Shifts by 0 < k < 64 (the largest used is 3 * (H + 1) = 39).
inline BB shl(BB a, int k) {
  return BB{{a.w[0] << k, (a.w[1] << k) | (a.w[0] >> (64 - k)),
             (a.w[2] << k) | (a.w[1] >> (64 - k))}};
}
inline BB shr(BB a, int k) {
  return BB{{(a.w[0] >> k) | (a.w[1] << (64 - k)), (a.w[1] >> k) | (a.w[2] << (64 - k)),
             a.w[2] >> k}};
}
inline BB add(BB a, BB b) {
  BB r;
  r.w[0] = a.w[0] + b.w[0];
  uint64_t c = r.w[0] < a.w[0];
  r.w[1] = a.w[1] + b.w[1] + c;
  c = (r.w[1] < a.w[1]) || (c && r.w[1] == a.w[1]);
  r.w[2] = a.w[2] + b.w[2] + c;
  return r;
}
inline BB bit(int i) {
  BB r = bb_zero();
  r.w[i >> 6] = uint64_t(1) << (i & 63);
  return r;
}
inline int lowest_index(BB a) {
  for (int i = 0; i < 3; ++i)
    if (a.w[i]) return i * 64 + __builtin_ctzll(a.w[i]);
  return -1;
}

// xorshift64*: fast, good enough for play-outs.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed ? seed : 0x9E3779B97F4A7C15ULL) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1DULL;
  }
  int below(int n) { return int((next() >> 33) % uint64_t(n)); }
};

// One uniformly chosen set bit of a (a must not be empty).
inline BB random_bit(BB a, Rng& rng) {
  int k = rng.below(popcount(a));
  for (int i = 0; i < 3; ++i) {
    uint64_t w = a.w[i];
    int c = __builtin_popcountll(w);
    if (k >= c) {
      k -= c;
      continue;
    }
    while (k--) w &= w - 1;
    BB r = bb_zero();
    r.w[i] = w & (~w + 1);
    return r;
  }
  return bb_zero();
}

// The board's shape: everything that does not change during a game.
struct Geometry {
  int M, N, H;
  BB cells;   // every playable cell (the forbidden one excluded)
  BB bottom;  // the bottom cell of each column
  BB forb;    // the forbidden cell
  BB column[12];

  Geometry(int M, int N, int noX, int noY) : M(M), N(N), H(M + 1) {
    cells = bottom = forb = bb_zero();
    for (int y = 0; y < N; ++y) {
      column[y] = bb_zero();
      for (int r = 0; r < M; ++r) column[y] = column[y] | bit(y * H + r);
      cells = cells | column[y];
      bottom = bottom | bit(y * H);
    }
    forb = bit(noY * H + (M - 1 - noX));
    cells = cells & ~forb;
  }
  int column_of(BB move) const { return lowest_index(move) / H; }
};

// Every empty cell that would complete four of `p`'s pieces (Pons' compute_winning_position).
inline BB winning_cells(BB p, BB empty, int H) {
  BB r = shl(p, 1) & shl(p, 2) & shl(p, 3);
  const int dirs[3] = {H - 1, H, H + 1};
  for (int d : dirs) {
    BB a = shl(p, d) & shl(p, 2 * d);
    r = r | (a & shl(p, 3 * d)) | (a & shr(p, d));
    BB b = shr(p, d) & shr(p, 2 * d);
    r = r | (b & shl(p, d)) | (b & shr(p, 3 * d));
  }
  return r & empty;
}

// A position relative to the side to move: `mine` are its pieces, `filled` all pieces.
struct Position {
  const Geometry* g;
  BB mine, filled;

  BB possible() const { return add(filled | g->forb, g->bottom) & g->cells; }
  BB empty() const { return g->cells & ~filled; }
  BB my_wins() const { return winning_cells(mine, empty(), g->H); }
  BB their_wins() const { return winning_cells(mine ^ filled, empty(), g->H); }
  void play(BB move) {
    mine = mine ^ filled;
    filled = filled | move;
  }
};

// What the side to move faces, and the moves the tactical policy allows it.
enum Situation { kNormal, kCanWin, kLost, kFull };

struct Options {
  Situation situation;
  BB moves;  // kCanWin: winning moves; kNormal: forced block or safe moves; else empty
};

// Cells c such that an opponent's winning cell is the next free cell above c, the forbidden
// cell skipped: playing c would hand the opponent the win.
inline BB under(BB their_wins, const Geometry& g) {
  return shr(their_wins, 1) | (shr(their_wins, 2) & shr(g.forb, 1));
}

// `mine` and `theirs`: the winning cells of the side to move and of its opponent.
Options options(const Position& pos, BB mine, BB theirs) {
  BB poss = pos.possible();
  if (!any(poss)) return Options{kFull, bb_zero()};
  BB win = mine & poss;
  if (any(win)) return Options{kCanWin, win};
  BB forced = theirs & poss;
  if (any(forced)) {
    if (popcount(forced) > 1) return Options{kLost, forced};
    return Options{kNormal, forced};
  }
  BB safe = poss & ~under(theirs, *pos.g);
  return Options{kNormal, any(safe) ? safe : poss};
}

Options options(const Position& pos) { return options(pos, pos.my_wins(), pos.their_wins()); }

// A tactical play-out; returns the result for the side to move at the start (1, 0.5, 0).
// One winning-cell computation per ply: the side that did not move keeps its winning cells,
// less the cell just filled.
double rollout(Position pos, Rng& rng) {
  double mover_score = 1.0;  // the start side's score if the side now to move wins
  BB mine = pos.my_wins(), theirs = pos.their_wins();
  for (;;) {
    Options o = options(pos, mine, theirs);
    if (o.situation == kFull) return 0.5;
    if (o.situation == kCanWin) return mover_score;
    if (o.situation == kLost) return 1.0 - mover_score;
    BB move = random_bit(o.moves, rng);
    pos.play(move);
    BB just_moved = winning_cells(pos.mine ^ pos.filled, pos.empty(), pos.g->H);
    mine = theirs & ~move;
    theirs = just_moved;
    mover_score = 1.0 - mover_score;
  }
}

struct Node {
  int first_child;
  int sibling;
  int visits;
  float value;     // summed results for the player who moved into this node
  float terminal;  // its exact result for that player, or -1 when not terminal
  uint16_t untried;
  int8_t col;
};

uint16_t column_set(BB moves, const Geometry& g) {
  uint16_t s = 0;
  for (int y = 0; y < g.N; ++y)
    if (any(moves & g.column[y])) s |= uint16_t(1u << y);
  return s;
}

int random_column(uint16_t set, Rng& rng) {
  int k = rng.below(__builtin_popcount(set));
  while (k--) set &= set - 1;
  return __builtin_ctz(set);
}

// A new node for `pos`, reached by a move in column `col` (already played in pos). That move
// never made four: a side that can win is a terminal node, and the root plays its win at once.
Node make_node(const Position& pos, int col) {
  Node n{-1, -1, 0, 0.0f, -1.0f, 0, int8_t(col)};
  Options o = options(pos);
  switch (o.situation) {
    case kFull: n.terminal = 0.5f; break;
    case kCanWin: n.terminal = 0.0f; break;
    case kLost: n.terminal = 1.0f; break;
    case kNormal: n.untried = column_set(o.moves, *pos.g); break;
  }
  return n;
}

double env_double(const char* name, double fallback) {
  const char* s = std::getenv(name);
  if (!s || !*s) return fallback;
  double v = std::atof(s);
  return v > 0 && std::isfinite(v) ? v : fallback;
}

long long env_count(const char* name) {
  const char* s = std::getenv(name);
  return s && *s ? std::atoll(s) : 0;
}

const size_t kMaxNodes = size_t(1) << 23;  // about 200 MB at most; then leaves stop growing

class Search {
 public:
  Search(const Geometry& g, const Position& root, uint64_t seed, double c)
      : g_(g), root_(root), rng_(seed), c_(c) {
    nodes_.reserve(1 << 16);
    nodes_.push_back(make_node(root, -1));
  }

  // Runs until the deadline or the play-out cap; returns the most visited column.
  int run(std::chrono::steady_clock::time_point deadline, long long cap) {
    for (long long done = 0; cap <= 0 || done < cap; ++done) {
      if ((done & 15) == 0 && done > 0 && std::chrono::steady_clock::now() >= deadline) break;
      iterate();
    }
    int best = most_visited();
    return best < 0 ? -1 : nodes_[best].col;
  }

 private:
  // The root's most visited child (the first met among equals), or -1 before any expansion.
  int most_visited() const {
    int best = -1, best_visits = -1;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].sibling)
      if (nodes_[c].visits > best_visits) {
        best_visits = nodes_[c].visits;
        best = c;
      }
    return best;
  }

  BB cell_in(const Position& pos, int col) const { return pos.possible() & g_.column[col]; }

  void iterate() {
    Position pos = root_;
    path_.clear();
    int id = 0;
    path_.push_back(id);
    double value;  // for the player who moved into nodes_[id]
    for (;;) {
      Node& n = nodes_[id];
      if (n.terminal >= 0) {
        value = n.terminal;
        break;
      }
      if (n.untried && nodes_.size() < kMaxNodes) {
        int col = random_column(n.untried, rng_);
        n.untried &= uint16_t(~(1u << col));
        pos.play(cell_in(pos, col));
        Node child = make_node(pos, col);
        child.sibling = n.first_child;
        int child_id = int(nodes_.size());
        nodes_[id].first_child = child_id;
        nodes_.push_back(child);
        id = child_id;
        path_.push_back(id);
        value = child.terminal >= 0 ? child.terminal : 1.0 - rollout(pos, rng_);
        break;
      }
      if (n.first_child < 0) {  // node pool full: evaluate this leaf by play-out alone
        value = 1.0 - rollout(pos, rng_);
        break;
      }
      id = select(n);
      pos.play(cell_in(pos, nodes_[id].col));
      path_.push_back(id);
    }
    for (size_t i = path_.size(); i-- > 0;) {
      Node& n = nodes_[path_[i]];
      n.visits += 1;
      n.value += float(value);
      value = 1.0 - value;
    }
  }

  int select(const Node& parent) const {
    double log_n = std::log(double(parent.visits));
    int best = -1;
    double best_score = -1.0;
    for (int c = parent.first_child; c >= 0; c = nodes_[c].sibling) {
      const Node& ch = nodes_[c];
      double score = ch.value / ch.visits + c_ * std::sqrt(log_n / ch.visits);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  const Geometry& g_;
  Position root_;
  Rng rng_;
  double c_;
  std::vector<Node> nodes_;
  std::vector<int> path_;
};

uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  return h ^ (h >> 33);
}

uint64_t seed_for(const Position& pos) {
  const char* s = std::getenv("UCT_SEED");
  uint64_t h;
  if (s && *s) {
    h = std::strtoull(s, nullptr, 10);
  } else {
    h = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  for (int i = 0; i < 3; ++i) h = mix(h ^ pos.mine.w[i] ^ mix(pos.filled.w[i] + i));
  return h;
}

// The column to play, or -1 if the position has no legal move.
int choose_column(const Geometry& g, const Position& pos,
                  std::chrono::steady_clock::time_point start) {
  Options o = options(pos);
  if (o.situation == kFull) return -1;
  uint16_t moves = column_set(o.moves, g);
  if (__builtin_popcount(moves) == 1 || o.situation != kNormal) return __builtin_ctz(moves);
  double seconds = env_double("UCT_TIME", 2.6);
  auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(seconds));
  Search search(g, pos, seed_for(pos), env_double("UCT_C", 0.7));
  return search.run(deadline, env_count("UCT_PLAYOUTS"));
}

}  // namespace

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
  (void)lastX;
  (void)lastY;
  auto start = std::chrono::steady_clock::now();
  Geometry g(M, N, noX, noY);
  Position pos{&g, bb_zero(), bb_zero()};
  for (int x = 0; x < M; ++x)
    for (int y = 0; y < N; ++y) {
      int v = board[x * N + y];
      if (v == 0 || (x == noX && y == noY)) continue;
      BB cell = bit(y * g.H + (M - 1 - x));
      pos.filled = pos.filled | cell;
      if (v == 2) pos.mine = pos.mine | cell;
    }
  int col = choose_column(g, pos, start);
  if (col < 0 || top[col] <= 0) {  // board and top disagree: trust top, stay legal
    col = -1;
    for (int y = 0; y < N && col < 0; ++y)
      if (top[y] > 0) col = y;
    if (col < 0) col = 0;
  }
  return new Point(top[col] - 1, col);
}

extern "C" void clearPoint(Point* p) { delete p; }
