// The scaling experiment against the variance argument and the lesson's three regimes.
#include <gtest/gtest.h>

#include <cmath>

#include "scaling.h"

namespace {

// Standard deviation of the measured variance of q·k over n × n scores, relative to d_k.
// Each S_ij² has variance 2d_k² + 6d_k; two scores sharing a query (or a key) have covariance
// 2d_k through that shared vector's norm, and those pairs dominate:
//   Var(mean S²) / d_k² ≈ (2 + 6/d_k) / n² + 4 / (n d_k).
double relative_sigma(int n, int dk) {
  return std::sqrt((2.0 + 6.0 / dk) / (double(n) * n) + 4.0 / (double(n) * dk));
}

TEST(ExperimentsScaling, VariancesMatchDkAndOne) {
  for (const int dk : {4, 64, 256}) {
    const experiments::ScalingData d = experiments::scaling(dk, 7);
    // Five standard deviations: a fixed seed, so this either always passes or never does,
    // and 5σ leaves no room for a wrong variance (d_k/2 or 2d_k) to pass.
    const double tol = 5 * relative_sigma(d.queries, dk);
    EXPECT_NEAR(d.variance_raw / dk, 1.0, tol) << "d_k = " << dk;
    EXPECT_NEAR(d.variance_scaled, 1.0, tol) << "d_k = " << dk;
  }
}

TEST(ExperimentsScaling, HistogramsHoldTheScores) {
  // (Not d_k = 1: one product of two normals has heavier tails than ±4σ of a normal allows.)
  for (const int dk : {32, experiments::kScalingMaxDk}) {
    const experiments::ScalingData d = experiments::scaling(dk, 3);
    for (const experiments::Histogram* h : {&d.raw, &d.scaled}) {
      ASSERT_EQ(h->edges.size(), h->counts.size() + 1);
      long total = 0;
      for (const int c : h->counts) total += c;
      // Both span at least ±4σ, which holds all but about 6 in 100,000 normal samples.
      EXPECT_GT(total, 0.999 * d.queries * d.keys) << "d_k = " << dk;
      EXPECT_LE(total, long(d.queries) * d.keys);
    }
  }
}

// The half-width around 0 holding 95% of a histogram's samples, to a bin's width.
double central_95(const experiments::Histogram& h) {
  long total = 0;
  for (const int c : h.counts) total += c;
  const std::size_t mid = h.counts.size() / 2;  // an even number of bins, symmetric about 0
  long inside = 0;
  for (std::size_t k = 0; mid + k < h.counts.size(); ++k) {
    inside += h.counts[mid + k] + h.counts[mid - 1 - k];
    if (inside >= 0.95 * total) return h.edges[mid + k + 1];
  }
  return h.edges.back();
}

// The raw histogram keeps one axis for every d_k (the lesson's figure shows the spread widen on
// screen), and the spread on it follows √d_k: 95% of N(0, d_k) lies within ±1.96√d_k (q·k is a
// sum of d_k products of normals, close to normal from d_k = 64; at d_k = 1 it is one product).
TEST(ExperimentsScaling, RawHistogramWidensOnOneAxis) {
  const experiments::ScalingData one = experiments::scaling(1, 5);
  double narrower = central_95(one.raw);
  for (const int dk : {64, experiments::kScalingMaxDk}) {
    const experiments::ScalingData d = experiments::scaling(dk, 5);
    EXPECT_EQ(d.raw.edges, one.raw.edges) << "d_k = " << dk;
    const double bin = d.raw.edges[1] - d.raw.edges[0], expected = 1.96 * std::sqrt(double(dk));
    EXPECT_NEAR(central_95(d.raw), expected, 0.05 * expected + bin) << "d_k = " << dk;
    EXPECT_GT(central_95(d.raw), 2 * narrower) << "d_k = " << dk;
    narrower = central_95(d.raw);
    // The scaled scores' spread stays at 1 on their own fixed axis.
    EXPECT_EQ(d.scaled.edges, one.scaled.edges);
    EXPECT_NEAR(central_95(d.scaled), 1.96, 0.1 + (d.scaled.edges[1] - d.scaled.edges[0])) << "d_k = " << dk;
  }
}

TEST(ExperimentsScaling, EntropyOrdersTheThreeScalesAtLargeDk) {
  const experiments::ScalingData d = experiments::scaling(8, 11);
  ASSERT_EQ(d.sweep_dk.front(), 1);
  ASSERT_EQ(d.sweep_dk.back(), experiments::kScalingMaxDk);
  const auto& none = d.scales[0];
  const auto& sqrt_dk = d.scales[1];
  const auto& inv_dk = d.scales[2];
  ASSERT_EQ(none.name, "none");
  ASSERT_EQ(inv_dk.name, "inv_dk");
  const std::size_t last = d.sweep_dk.size() - 1;
  EXPECT_LT(none.entropy[last], sqrt_dk.entropy[last]);
  EXPECT_LT(sqrt_dk.entropy[last], inv_dk.entropy[last]);
  EXPECT_GT(none.max_weight[last], sqrt_dk.max_weight[last]);
  EXPECT_GT(sqrt_dk.max_weight[last], inv_dk.max_weight[last]);
  // The regimes: scores of spread √512 ≈ 22.6 make rows nearly one-hot; spread 1/√512 makes
  // them nearly uniform (entropy within 0.1% of ln 256); spread 1 keeps them in between.
  EXPECT_GT(none.max_weight[last], 0.8);
  EXPECT_NEAR(inv_dk.entropy[last], d.uniform_entropy, 1e-3 * d.uniform_entropy);
  // With 1/√d_k the entropy does not drift with d_k: the sweep's ends agree within 10%.
  EXPECT_NEAR(sqrt_dk.entropy[last], sqrt_dk.entropy[2], 0.1 * sqrt_dk.entropy[2]);
}

TEST(ExperimentsScaling, SampleRowsAreDistributions) {
  const experiments::ScalingData d = experiments::scaling(16, 5);
  for (const experiments::ScaleSeries& s : d.scales) {
    ASSERT_EQ(int(s.sample_weights.size()), d.keys);
    double sum = 0;
    for (const float w : s.sample_weights) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-5) << s.name;
  }
}

TEST(ExperimentsScaling, RejectsDkOutOfRange) {
  EXPECT_THROW(experiments::scaling(0, 1), std::invalid_argument);
  EXPECT_THROW(experiments::scaling(experiments::kScalingMaxDk + 1, 1), std::invalid_argument);
}

}  // namespace
