#include "tasks.h"

#include <algorithm>
#include <numeric>

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

// The induction block's length: from a quarter to a half of the sequence.
int shortest_block(int seq) { return std::max(1, (seq + 3) / 4); }

void fill_sequence(const Config& c, std::mt19937& rng, int* x, int* y) {
  const int n = c.seq;
  std::fill(y, y + n, -1);
  switch (c.task) {
    case Task::reverse:
      for (int i = 0; i < n; ++i) x[i] = uniform_int(rng, 0, c.vocab - 1);
      for (int i = 0; i < n; ++i) y[i] = x[n - 1 - i];
      break;
    case Task::max: {
      for (int i = 0; i < n; ++i) x[i] = uniform_int(rng, 0, c.vocab - 1);
      const int top = *std::max_element(x, x + n);
      std::fill(y, y + n, top);
      break;
    }
    case Task::sort: {
      const std::vector<int> t = distinct_tokens(rng, c.vocab, n);
      std::copy(t.begin(), t.end(), x);
      for (int i = 0; i < n; ++i) {
        int next = x[i];
        for (int j = 0; j < n; ++j)
          if (x[j] > x[i] && (next == x[i] || x[j] < next)) next = x[j];
        y[i] = next;
      }
      break;
    }
    case Task::induction: {
      const int block = uniform_int(rng, shortest_block(n), n / 2);
      const int start = n - 2 * block;  // noise before the first copy
      const std::vector<int> t = distinct_tokens(rng, c.vocab, n - block);
      std::copy(t.begin(), t.end(), x);
      for (int i = 0; i < block; ++i) x[start + block + i] = x[start + i];
      // In the repeat, every token but the last predicts its successor.
      for (int t2 = start + block; t2 < n - 1; ++t2) y[t2] = x[t2 + 1];
      break;
    }
  }
}

}  // namespace

int min_vocab(Task task, int seq) {
  switch (task) {
    case Task::sort: return seq;
    case Task::induction: return seq - shortest_block(seq);
    default: return 2;
  }
}

Batch make_batch(const Config& c, int size, std::mt19937& rng) {
  Batch b;
  b.size = size;
  b.seq = c.seq;
  b.tokens.resize(std::size_t(size) * c.seq);
  b.targets.resize(b.tokens.size());
  for (int s = 0; s < size; ++s)
    fill_sequence(c, rng, &b.tokens[std::size_t(s) * c.seq], &b.targets[std::size_t(s) * c.seq]);
  return b;
}

}  // namespace train
