#include "corpus_rows.h"

#include <algorithm>
#include <stdexcept>

namespace lm {
namespace {

// A whole number in [0, n), and a fraction in [0, 1), from the generator's raw 32-bit output.
std::size_t below(std::mt19937& rng, std::size_t n) { return std::size_t(rng()) % n; }
double fraction(std::mt19937& rng) { return rng() / 4294967296.0; }

// Where a corpus span of `length` tokens starts: anywhere, or in a part chosen evenly.
std::size_t span_start(const std::vector<Part>& parts, std::size_t size, int length, std::mt19937& rng) {
  if (parts.empty()) return below(rng, size - length + 1);
  const Part& p = parts[below(rng, parts.size())];
  return p.begin + below(rng, p.end - p.begin - length + 1);
}

}  // namespace

train::Batch corpus_rows(const std::vector<int>& corpus, const std::vector<int>& letters, int space, int seq,
                         int rows, const RowMix& mix, std::mt19937& rng) {
  if (corpus.size() < std::size_t(seq) + 1) throw std::invalid_argument("corpus: shorter than one row");
  for (const Part& p : mix.span_parts)
    if (p.begin > p.end || p.end > corpus.size() || p.end - p.begin < std::size_t(mix.max_run))
      throw std::invalid_argument("corpus: a span part is outside the corpus or shorter than the longest run");
  train::Batch b;
  b.size = rows;
  b.seq = seq;
  std::vector<int> row(seq + 1), run;
  for (int r = 0; r < rows; ++r) {
    const std::size_t start = below(rng, corpus.size() - seq);
    std::copy_n(corpus.begin() + std::ptrdiff_t(start), seq + 1, row.begin());
    const double kind = fraction(rng);
    const int longest = std::min(mix.max_run, seq / 2);  // two copies and a space fit in seq + 1
    if (kind < mix.random_repeat + mix.corpus_repeat && longest >= mix.min_run) {
      const int length = mix.min_run + int(below(rng, std::size_t(longest - mix.min_run + 1)));
      run.resize(length);
      if (kind < mix.random_repeat) {
        for (int& t : run) t = letters[below(rng, letters.size())];
      } else {
        const std::size_t from = span_start(mix.span_parts, corpus.size(), length, rng);
        std::copy_n(corpus.begin() + std::ptrdiff_t(from), length, run.begin());
      }
      // The run and a space, from `at` on: twice for a corpus span, and for a random run
      // again and again to the row's end (the more copies, the more induction pays).
      const int unit = length + 1;
      const int at = int(below(rng, std::size_t(seq + 3 - 2 * unit)));  // at + 2·unit − 1 ≤ seq + 1
      const int end = kind < mix.random_repeat ? seq + 1 : at + 2 * unit - 1;
      for (int t = at; t < end; ++t) row[t] = (t - at) % unit < length ? run[(t - at) % unit] : space;
    }
    b.tokens.insert(b.tokens.end(), row.begin(), row.end() - 1);
    b.targets.insert(b.targets.end(), row.begin() + 1, row.end());
  }
  return b;
}

}  // namespace lm
