// What a head does, measured on its attention map over one text (docs/model.md). A map a is
// n × n with row i the weights of query i over the keys j ≤ i (a causal map; rows sum to 1).
//
//   previous-token score   mean over i = 1 … n−1 of a[i][i−1]
//                          (on ordinary text: how much each character looks at the one before)
//   induction score        on a text typed twice with period L (text[t] = text[t−L], t ≥ L),
//                          mean over i = L … n−1 of a[i][i−L+1]: from each character of the
//                          second copy to the character that followed the same character in
//                          the first copy (the one to predict next)
//   copy losses            loss[i] = −log p(text[i+1]) at position i; the first copy's mean
//                          over the targets t = 1 … n−1−L and the second copy's over the same
//                          characters, t = L+1 … n−1 (each copy's first character, which
//                          nothing before it predicts, is left out of both)
//
// A head that spreads its weight evenly over the i+1 keys it can see puts 1/(i+1) on each:
// uniform_map() gives that head, so the report states what "no pattern" scores on each text.
#pragma once

#include <string>
#include <vector>

#include "reference.h"

namespace lm {

using attn::Matrix;

double previous_token_score(const Matrix& a);
// Throws std::invalid_argument unless 1 ≤ period < n.
double induction_score(const Matrix& a, int period);

struct CopyLoss {
  double first = 0, second = 0;
};
// `loss` has n − 1 entries (loss[i] predicts text[i + 1]); throws std::invalid_argument
// unless 1 ≤ period and n ≥ period + 2 (so each copy has a character to score).
CopyLoss copy_loss(const std::vector<double>& loss, int period);

// The causal map that looks evenly at every key it can see.
Matrix uniform_map(int n);

// A label only where the score says so: "previous-token" at a previous-token score of at
// least kPreviousToken, "induction" at an induction score (on random strings typed twice,
// where nothing but induction finds the key) of at least kInduction; both joined by ", ";
// otherwise "".
inline constexpr double kPreviousToken = 0.4;
inline constexpr double kInduction = 0.3;
std::string head_label(double previous_token, double induction);

}  // namespace lm
