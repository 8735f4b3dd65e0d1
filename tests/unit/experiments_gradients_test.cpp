// The gradients experiment: the softmax Jacobian against finite differences of a float64
// softmax, and the vanishing of the gradient as the scores saturate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gradients.h"

namespace {

std::vector<double> softmax64(std::vector<double> s) {
  double m = s[0];
  for (const double x : s) m = std::max(m, x);
  double sum = 0;
  for (double& x : s) sum += (x = std::exp(x - m));
  for (double& x : s) x /= sum;
  return s;
}

TEST(ExperimentsGradients, JacobianMatchesFiniteDifferences) {
  for (const float multiplier : {0.5f, 1.0f, 3.0f}) {
    const experiments::GradientsData d = experiments::gradients(multiplier, 9, 3);
    const int n = d.n;
    std::vector<double> s(n);
    for (int j = 0; j < n; ++j) s[j] = d.scores(d.selected_query, j);
    const double h = 1e-6;
    for (int j = 0; j < n; ++j) {
      std::vector<double> up = s, down = s;
      up[j] += h;
      down[j] -= h;
      const std::vector<double> a_up = softmax64(up), a_down = softmax64(down);
      double row_sum = 0;
      for (int i = 0; i < n; ++i) {
        // Column j of ∂a/∂s; the Jacobian is symmetric, so it is also row j.
        EXPECT_NEAR(d.jacobian(i, j), (a_up[i] - a_down[i]) / (2 * h), 1e-5) << "(" << i << ", " << j << ")";
        row_sum += d.jacobian(j, i);
      }
      // The weights always sum to 1, so no change of the scores changes their sum.
      EXPECT_NEAR(row_sum, 0.0, 1e-6);
    }
  }
}

TEST(ExperimentsGradients, ScoreGradientIsTheJacobianTimesTheWeightGradient) {
  const experiments::GradientsData d = experiments::gradients(1.0f, 4, 5);
  const int i = d.selected_query;
  for (int j = 0; j < d.n; ++j) {
    double through_jacobian = 0;
    for (int k = 0; k < d.n; ++k) through_jacobian += double(d.jacobian(j, k)) * d.d_weights(i, k);
    EXPECT_NEAR(d.d_scores(i, j), through_jacobian, 1e-5);
  }
}

std::size_t point_of(const experiments::GradientsData& d, float multiplier) {
  std::size_t r = 0;
  while (d.sweep_multiplier[r] != multiplier) ++r;
  return r;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return (x[(x.size() - 1) / 2] + x[x.size() / 2]) / 2;
}

// With seed 1 no two keys tie for any query, so at the end of the sweep every row is one-hot
// and the whole backward signal dies: through the softmax (dS) and into the keys (dK).
TEST(ExperimentsGradients, GradientVanishesAsTheSoftmaxSaturates) {
  const experiments::GradientsData d = experiments::gradients(1.0f, 1, 0);
  const std::size_t last = d.sweep_multiplier.size() - 1, at_one = point_of(d, 1.0f);
  EXPECT_GT(d.max_weight[last], 0.9999);
  EXPECT_LT(d.max_weight[at_one], 0.9);
  EXPECT_LT(d.d_scores_norm[last], 1e-6 * d.d_scores_norm[at_one]);
  EXPECT_LT(d.d_k_norm[last], 1e-6 * d.d_k_norm[at_one]);
  // Past the point where rows are mostly one-hot, each step up in scale loses signal.
  for (std::size_t r = 1; r <= last; ++r)
    if (d.max_weight[r - 1] > 0.9) EXPECT_LT(d.d_scores_norm[r], d.d_scores_norm[r - 1]) << "point " << r;
  // The per-key sums of |dS| make up the total: Σ|x| >= ‖x‖.
  for (std::size_t r = 0; r <= last; ++r)
    EXPECT_GE(d.key_score_grad.row(Eigen::Index(r)).sum(), d.d_scores_norm[r] * 0.999);
}

// Whatever the seed, most keys stop receiving a gradient; only keys in a near tie for some
// query's largest score (their difference too small for the scale to separate) keep one.
TEST(ExperimentsGradients, MostKeysLoseTheirGradient) {
  for (const std::uint32_t seed : {2u, 3u, 4u, 5u}) {
    const experiments::GradientsData d = experiments::gradients(1.0f, seed, 0);
    const Eigen::Index last = d.key_score_grad.rows() - 1, at_one = Eigen::Index(point_of(d, 1.0f));
    std::vector<double> ratio;
    for (int j = 0; j < d.n; ++j) ratio.push_back(d.key_score_grad(last, j) / d.key_score_grad(at_one, j));
    EXPECT_LT(median(ratio), 1e-3) << "seed " << seed;
  }
}

TEST(ExperimentsGradients, RejectsBadParameters) {
  EXPECT_THROW(experiments::gradients(0.0f, 1, 0), std::invalid_argument);
  EXPECT_THROW(experiments::gradients(1.0f, 1, -1), std::invalid_argument);
  EXPECT_THROW(experiments::gradients(1.0f, 1, 1000), std::invalid_argument);
}

}  // namespace
