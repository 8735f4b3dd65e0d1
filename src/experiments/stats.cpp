#include "stats.h"

#include <cmath>

namespace experiments {

Histogram histogram(const attn::Matrix& samples, double half_width, int bins, double normal_variance) {
  Histogram h;
  const double width = 2.0 * half_width / bins;
  for (int b = 0; b <= bins; ++b) h.edges.push_back(-half_width + b * width);
  h.counts.assign(bins, 0);
  for (Eigen::Index i = 0; i < samples.size(); ++i) {
    const double bin = std::floor((samples.data()[i] + half_width) / width);
    if (bin >= 0 && bin < bins) ++h.counts[std::size_t(bin)];
  }
  const double pi = std::acos(-1.0);
  for (int b = 0; b < bins; ++b) {
    const double c = h.edges[b] + width / 2;
    h.centres.push_back(c);
    h.density.push_back(h.counts[b] / (double(samples.size()) * width));
    h.normal_density.push_back(std::exp(-c * c / (2 * normal_variance)) / std::sqrt(2 * pi * normal_variance));
  }
  return h;
}

double variance(const attn::Matrix& samples) {
  const double mean = samples.cast<double>().mean();
  return (samples.cast<double>().array() - mean).square().sum() / double(samples.size() - 1);
}

double entropy(const attn::Matrix& weights, int row) {
  double h = 0;
  for (const float a : weights.row(row))
    if (a > 0) h -= a * std::log(double(a));  // 0 · ln 0 = 0
  return h;
}

double mean_row_entropy(const attn::Matrix& weights) {
  double sum = 0;
  for (int i = 0; i < weights.rows(); ++i) sum += entropy(weights, i);
  return sum / weights.rows();
}

double mean_row_max(const attn::Matrix& weights) {
  return weights.rowwise().maxCoeff().cast<double>().mean();
}

}  // namespace experiments
