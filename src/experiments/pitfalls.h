// Experiment "pitfalls": each mistake of the lesson computed beside the right result. The
// right result is causal self-attention with scale 1/√d_k, −∞ for blocked keys and the
// stable softmax; each case changes one of those (the last one adds a padding mask).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference.h"

namespace experiments {

struct PitfallCase {
  std::string name;  // no_scaling, divide_by_dk, fill_minus_one, fill_zero, no_causal_mask, fully_masked_row
  attn::Options right, wrong;  // the two settings compared
  // Rows: queries; columns: keys (weights) or value features (output). difference = wrong −
  // right, NaN wherever the wrong result is NaN.
  attn::Matrix weights_right, weights_wrong, weights_difference;
  attn::Matrix output_right, output_wrong, output_difference;
  // Per query i, Σ_{j > i} of the wrong weights: what the query sees of the future (0 when
  // the causal mask holds; NaN for a NaN row).
  std::vector<float> future_weight;
  int nan_rows = 0;  // rows of the wrong weights holding a NaN
};

struct PitfallsData {
  std::uint32_t seed = 0;
  int n = 0, dk = 0, dv = 0;   // self-attention, n queries and keys
  attn::Matrix q, k, v;        // the problem, entries from N(0, 1): (n × d_k), (n × d_k), (n × d_v)
  int padding_key = 0;         // the key fully_masked_row's padding mask blocks
  std::vector<PitfallCase> cases;
};

PitfallsData pitfalls(std::uint32_t seed);

}  // namespace experiments
