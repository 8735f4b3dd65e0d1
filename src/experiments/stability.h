// Experiment "stability": the softmax as written, e^s / Σ e^s, against the max-subtracted
// one as the scores grow, with float32 intermediates and with float16-style rounding; and
// −∞ against −1e9 as the value of a blocked key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference.h"

namespace experiments {

// One softmax at one precision over the sweep of score magnitudes.
struct SoftmaxSeries {
  std::string name;  // naive_float32, stable_float32, naive_float16, stable_float16
  attn::Softmax softmax = attn::Softmax::stable;
  attn::Precision precision = attn::Precision::float32;
  // Per sweep point (x axis: StabilityData::magnitude):
  std::vector<float> largest_exp;  // the largest of the row's exponentials; ∞ once exp overflows
  std::vector<float> max_weight;   // the top key's weight; NaN once ∞/∞ appears
  // The smallest swept magnitude where an exponential is ∞, and where a weight is NaN; NaN
  // when it never happens in the sweep (the stable softmax).
  float first_overflow = 0;
  float first_nan = 0;
};

// −∞ or −1e9 for blocked keys, at one precision, under the stable softmax.
struct MaskFillCase {
  std::string name;  // neg_inf_float32, neg_1e9_float32, neg_inf_float16, neg_1e9_float16
  float fill = 0;
  attn::Precision precision = attn::Precision::float32;
  float stored_fill = 0;  // the fill as the kernel's mask holds it: −1e9 has no float16, it is −∞
  // Rows: query 0 (its second half of keys blocked), query 1 (every key blocked); columns: keys.
  attn::Matrix weights;
};

struct StabilityData {
  std::uint32_t seed = 0;
  // One query row of scores magnitude · pattern_j; the pattern spans [0, 1] (drawn from the
  // seed), so the row's largest score is the magnitude itself.
  std::vector<float> pattern;
  std::vector<float> magnitude;  // the sweep: 0 … 100 in steps of magnitude_step
  float magnitude_step = 0;
  // Where exp overflows by the formats' limits, for labelling the measured thresholds:
  float predicted_overflow_float32 = 0;  // ln(FLT_MAX)
  float predicted_overflow_float16 = 0;  // ln(65504)
  std::vector<SoftmaxSeries> series;
  int mask_keys = 0;
  std::vector<MaskFillCase> mask_fills;
};

StabilityData stability(std::uint32_t seed);

}  // namespace experiments
