#include "tasks.h"

#include <algorithm>
#include <iterator>
#include <numeric>

#include "i18n.h"

namespace train {
namespace {

int uniform_int(std::mt19937& rng, int lo, int hi) {  // in [lo, hi], the same on every platform
  return lo + int(rng() % std::uint32_t(hi - lo + 1));
}

// The first `count` tokens of a random permutation of the vocabulary (Fisher–Yates written
// out: std::shuffle's algorithm differs between standard libraries).
std::vector<int> distinct_tokens(std::mt19937& rng, int vocab, int count) {
  std::vector<int> all(vocab);
  std::iota(all.begin(), all.end(), 0);
  for (int i = 0; i < count; ++i) std::swap(all[i], all[uniform_int(rng, i, vocab - 1)]);
  all.resize(count);
  return all;
}

int any_two(int) { return 2; }  // tokens may repeat: two are enough

void random_tokens(const Config& c, std::mt19937& rng, int* x) {
  for (int i = 0; i < c.seq; ++i) x[i] = uniform_int(rng, 0, c.vocab - 1);
}

// [SECTION] reverse

void reverse_start(Config&) {}  // Config's own settings are reverse's

void reverse_data(const Config& c, std::mt19937& rng, int* x, int* y) {
  random_tokens(c, rng, x);
  for (int i = 0; i < c.seq; ++i) y[i] = x[c.seq - 1 - i];
}

// [SECTION] induction

// The block's length: from a quarter to a half of the sequence.
int shortest_block(int seq) { return std::max(1, (seq + 3) / 4); }

// Every token but the block's repeat is distinct.
int induction_vocab(int seq) { return seq - shortest_block(seq); }

void induction_start(Config& c) {
  c.layers = 2;
  c.heads = 2;
  c.d_k = 16;
  c.seq = 16;
  c.causal = true;
  c.init_std = 0.3f;
  c.lr = 0.01f;
}

void induction_data(const Config& c, std::mt19937& rng, int* x, int* y) {
  const int n = c.seq;
  const int block = uniform_int(rng, shortest_block(n), n / 2);
  const int start = n - 2 * block;  // noise before the first copy
  const std::vector<int> t = distinct_tokens(rng, c.vocab, n - block);
  std::copy(t.begin(), t.end(), x);
  for (int i = 0; i < block; ++i) x[start + block + i] = x[start + i];
  // In the repeat, every token but the last predicts its successor.
  for (int t2 = start + block; t2 < n - 1; ++t2) y[t2] = x[t2 + 1];
}

// [SECTION] sort

int sort_vocab(int seq) { return seq; }  // every token distinct

void sort_start(Config& c) { c.lr = 0.01f; }

void sort_data(const Config& c, std::mt19937& rng, int* x, int* y) {
  const int n = c.seq;
  const std::vector<int> t = distinct_tokens(rng, c.vocab, n);
  std::copy(t.begin(), t.end(), x);
  for (int i = 0; i < n; ++i) {
    int next = x[i];
    for (int j = 0; j < n; ++j)
      if (x[j] > x[i] && (next == x[i] || x[j] < next)) next = x[j];
    y[i] = next;
  }
}

// [SECTION] max

void max_start(Config& c) { c.lr = 0.01f; }

void max_data(const Config& c, std::mt19937& rng, int* x, int* y) {
  random_tokens(c, rng, x);
  std::fill(y, y + c.seq, *std::max_element(x, x + c.seq));
}

// [SECTION] the table

constexpr TaskSpec kTasks[] = {
    {Task::reverse, "reverse", N_("reverse"),
     N_("Reverse: position i must output the token at position n − 1 − i. Watch the map turn into an anti-diagonal: "
        "each query row lights up the mirrored key."),
     2, any_two, reverse_start, reverse_data},
    // Four positions at least: a target needs a block of two tokens (the repeat's last one
    // predicts nothing), and the block and its repeat must fit.
    {Task::induction, "induction", N_("induction"),
     N_("Induction: random tokens, a block, then the same block again; in the repeat each position predicts the next "
        "token. Watch layer 1 form a previous-token head (a bright line just below the diagonal) and layer 2 an "
        "induction head: in the repeat, each query reads the key just after its token's earlier copy."),
     4, induction_vocab, induction_start, induction_data},
    {Task::sort, "sort", N_("sort"),
     N_("Sort: each position outputs the next larger token present. Each row's bright cell lands on the key holding "
        "that token, so the pattern follows the tokens' values, not their positions."),
     2, sort_vocab, sort_start, sort_data},
    {Task::max, "max", N_("max"),
     N_("Max: every position outputs the largest token. Every row reads the same key, one bright column, wherever the "
        "largest token sits."),
     2, any_two, max_start, max_data},
};

// Task's values index the table.
constexpr bool in_task_order() {
  for (std::size_t i = 0; i < std::size(kTasks); ++i)
    if (kTasks[i].task != Task(i)) return false;
  return true;
}
static_assert(in_task_order(), "kTasks lists the tasks in the order of enum Task");

}  // namespace

const std::vector<TaskSpec>& tasks() {
  static const std::vector<TaskSpec> all(std::begin(kTasks), std::end(kTasks));
  return all;
}

const TaskSpec& task_spec(Task task) { return kTasks[int(task)]; }

int min_vocab(Task task, int seq) { return task_spec(task).min_vocab(seq); }

Batch make_batch(const Config& c, int size, std::mt19937& rng) {
  Batch b;
  b.size = size;
  b.seq = c.seq;
  b.tokens.resize(std::size_t(size) * c.seq);
  b.targets.assign(b.tokens.size(), -1);
  const TaskSpec& task = task_spec(c.task);
  for (int s = 0; s < size; ++s) task.fill(c, rng, &b.tokens[std::size_t(s) * c.seq], &b.targets[std::size_t(s) * c.seq]);
  return b;
}

}  // namespace train
