// The language model's training rows: windows of the corpus, some with a passage typed twice
// in them, so that induction heads form (docs/model.md, "What it was trained on"). Each row
// is `seq` tokens and, at every position, the next token as its target.
//
//   plain            a window of the corpus at a random offset
//   random repeat    the window, with a run of random letters and a space written over it
//                    again and again from a random place to the row's end (nothing but
//                    induction predicts the copies after the first)
//   corpus repeat    the same with a span of the corpus (from another random offset) as the
//                    run: a passage of ordinary text typed twice, what a student types; with
//                    span parts (a language's paragraphs each), a part chosen evenly first,
//                    so a language that is a small share of the corpus is copied as often
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "tasks.h"

namespace lm {

// Tokens [begin, end) of the corpus.
struct Part {
  std::size_t begin = 0, end = 0;
};

struct RowMix {
  double random_repeat = 0.4;   // share of rows with a random run repeated
  double corpus_repeat = 0.55;  // share with a corpus span typed twice (the rest: plain text)
  int min_run = 8, max_run = 60;  // the run's length (capped so both copies fit)
  std::vector<Part> span_parts;  // where corpus spans come from (empty: anywhere), each ≥ max_run long
};

// `corpus` holds at least seq + 1 tokens; `letters` the tokens random runs draw from;
// `space` the token between the copies. Draws from `rng` only through its raw output (the
// same rows on every platform).
train::Batch corpus_rows(const std::vector<int>& corpus, const std::vector<int>& letters, int space, int seq,
                         int rows, const RowMix& mix, std::mt19937& rng);

}  // namespace lm
