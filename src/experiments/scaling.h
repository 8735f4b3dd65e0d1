// Experiment "scaling": why the scores are divided by √d_k. With unit-variance q and k the dot
// product q·k has variance d_k; dividing by √d_k brings it back to 1, and the softmax of the
// scores stays between the near one-hot rows of no scaling and the near uniform rows of 1/d_k.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "stats.h"

namespace experiments {

inline constexpr int kScalingMaxDk = 512;

// One of the three scale factors the lesson compares.
struct ScaleSeries {
  std::string name;  // "none" (1), "inv_sqrt_dk" (1/√d_k), "inv_dk" (1/d_k)
  float scale = 1;   // the factor at the experiment's d_k
  // Query 0's attention weights over every key (x axis: key index, y: weight).
  std::vector<float> sample_weights;
  // Over ScalingData::sweep_dk (x axis: d_k, logarithmic): the mean over queries of the row
  // entropy in nats (0 = one-hot, ln keys = uniform) and of the row's largest weight.
  std::vector<double> entropy;
  std::vector<double> max_weight;
};

struct ScalingData {
  int dk = 0;
  std::uint32_t seed = 0;
  int queries = 0, keys = 0;  // Q is queries × d_k, K is keys × d_k, entries from N(0, 1)
  // Every q·k (the trace's raw scores), with N(0, d_k) over it, on bins that are the same for
  // every d_k (±4√kScalingMaxDk): the spread widens on a fixed axis.
  Histogram raw;
  Histogram scaled;           // every q·k / √d_k (the trace's scaled scores), with N(0, 1), on ±4
  double variance_raw = 0;    // measured; the argument predicts d_k
  double variance_scaled = 0; // measured; the argument predicts 1
  std::array<ScaleSeries, 3> scales;  // none, inv_sqrt_dk, inv_dk
  std::vector<int> sweep_dk;          // 1, 2, 4, …, 512
  double uniform_entropy = 0;         // ln keys: the entropy of perfectly uniform weights
};

// d_k in [1, kScalingMaxDk]; throws std::invalid_argument otherwise.
ScalingData scaling(int dk, std::uint32_t seed);

}  // namespace experiments
