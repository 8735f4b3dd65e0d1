// Summaries of the kernel's numbers that the experiments plot: histograms, variances and
// how peaked each softmax row is.
#pragma once

#include <vector>

#include "reference.h"

namespace experiments {

// A histogram with the normal density N(0, variance) beside it, on one density axis, so the
// view can overlay the measured shape and the curve the variance argument predicts.
struct Histogram {
  std::vector<double> edges;           // bins + 1 bin boundaries, ascending
  std::vector<double> centres;         // bins midpoints: the x axis
  std::vector<int> counts;             // samples per bin; samples outside [edges.front, edges.back) are not counted
  std::vector<double> density;         // counts / (samples · bin width): measured probability density
  std::vector<double> normal_density;  // N(0, variance) density at each centre
};

Histogram histogram(const attn::Matrix& samples, double half_width, int bins, double normal_variance);

double variance(const attn::Matrix& samples);  // about the sample mean, divided by count − 1

// Shannon entropy of one row of weights, in nats: 0 for one-hot, ln n for uniform.
double entropy(const attn::Matrix& weights, int row);
double mean_row_entropy(const attn::Matrix& weights);
double mean_row_max(const attn::Matrix& weights);  // the mean over rows of the largest weight

}  // namespace experiments
