// The pitfalls' wrong results against their closed forms, computed in float64 from the
// experiment's own Q, K and V by the tests' independent attention.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "float64_attention.h"
#include "pitfalls.h"

using namespace testing_ref;

namespace {

const experiments::PitfallCase& find(const experiments::PitfallsData& d, const std::string& name) {
  for (const auto& c : d.cases)
    if (c.name == name) return c;
  throw std::runtime_error("no case " + name);
}

Problem64 problem_of(const experiments::PitfallsData& d, double scale, int causal) {
  Problem64 p;
  p.nq = p.nk = d.n;
  p.dk = d.dk;
  p.dv = d.dv;
  p.q.assign(d.q.data(), d.q.data() + d.q.size());
  p.k.assign(d.k.data(), d.k.data() + d.k.size());
  p.v.assign(d.v.data(), d.v.data() + d.v.size());
  p.scale = scale;
  p.causal_offset_enabled = causal;
  return p;
}

// Blocked keys j > i get `fill` added instead of −∞.
Problem64 with_causal_fill(Problem64 p, double fill) {
  p.mask.assign(std::size_t(p.nq) * p.nk, 0.0);
  for (int i = 0; i < p.nq; ++i)
    for (int j = i + 1; j < p.nk; ++j) p.mask[std::size_t(i) * p.nk + j] = fill;
  return p;
}

void expect_weights(const attn::Matrix& got, const Result64& want, const std::string& what) {
  for (int i = 0; i < got.rows(); ++i)
    for (int j = 0; j < got.cols(); ++j)
      EXPECT_NEAR(got(i, j), want.weights[std::size_t(i) * got.cols() + j], 2e-6) << what << " (" << i << ", " << j << ")";
}

TEST(ExperimentsPitfalls, WrongScalesAreSoftmaxAtThatScale) {
  const experiments::PitfallsData d = experiments::pitfalls(21);
  const double sqrt_dk = std::sqrt(double(d.dk));
  expect_weights(find(d, "no_scaling").weights_right, attention64(problem_of(d, 1 / sqrt_dk, 1)), "right");
  expect_weights(find(d, "no_scaling").weights_wrong, attention64(problem_of(d, 1.0, 1)), "no scaling");
  expect_weights(find(d, "divide_by_dk").weights_wrong, attention64(problem_of(d, 1.0 / d.dk, 1)), "1/d_k");
}

TEST(ExperimentsPitfalls, FillMinusOneLeaksEToTheMinusOne) {
  const experiments::PitfallsData d = experiments::pitfalls(22);
  const experiments::PitfallCase& c = find(d, "fill_minus_one");
  expect_weights(c.weights_wrong, attention64(with_causal_fill(problem_of(d, 1 / std::sqrt(double(d.dk)), 0), -1.0)),
                 "fill -1");
  // Each future key keeps e^-1 of the weight it would have without any mask: the ratio of a
  // future key's weight to a visible one's is e^(s_ij − 1 − s_ik).
  const Result64 open = attention64(problem_of(d, 1 / std::sqrt(double(d.dk)), 0));
  const int n = d.n;
  for (int i = 0; i + 1 < n; ++i) {
    const double got = c.weights_wrong(i, i + 1) / c.weights_wrong(i, 0);
    const double want = std::exp(-1.0) * open.weights[std::size_t(i) * n + i + 1] / open.weights[std::size_t(i) * n];
    EXPECT_NEAR(got, want, 1e-5 * want) << "row " << i;
  }
}

TEST(ExperimentsPitfalls, FillZeroIsNoMaskAtAll) {
  const experiments::PitfallsData d = experiments::pitfalls(23);
  const Result64 open = attention64(problem_of(d, 1 / std::sqrt(double(d.dk)), 0));
  expect_weights(find(d, "fill_zero").weights_wrong, open, "fill 0");
  expect_weights(find(d, "no_causal_mask").weights_wrong, open, "no causal mask");
}

TEST(ExperimentsPitfalls, ForgettingTheCausalMaskSeesTheFuture) {
  const experiments::PitfallsData d = experiments::pitfalls(24);
  const experiments::PitfallCase& c = find(d, "no_causal_mask");
  const Result64 open = attention64(problem_of(d, 1 / std::sqrt(double(d.dk)), 0));
  for (int i = 0; i < d.n; ++i) {
    double future = 0;
    for (int j = i + 1; j < d.n; ++j) future += open.weights[std::size_t(i) * d.n + j];
    EXPECT_NEAR(c.future_weight[i], future, 2e-6) << "row " << i;
    if (i + 1 < d.n) EXPECT_GT(c.future_weight[i], 0.0f);
  }
  EXPECT_EQ(c.future_weight.back(), 0.0f);  // the last query has no future
  for (const float f : find(d, "no_scaling").future_weight) EXPECT_EQ(f, 0.0f);
}

TEST(ExperimentsPitfalls, FullyMaskedRowIsNaNNaiveAndZeroStable) {
  const experiments::PitfallsData d = experiments::pitfalls(25);
  const experiments::PitfallCase& c = find(d, "fully_masked_row");
  EXPECT_EQ(c.nan_rows, 1);
  const int row = d.padding_key;  // the query that sees only the padding key
  for (int j = 0; j < d.n; ++j) {
    EXPECT_TRUE(std::isnan(c.weights_wrong(row, j)));
    EXPECT_EQ(c.weights_right(row, j), 0.0f);
  }
  for (int j = 0; j < d.dv; ++j) EXPECT_EQ(c.output_right(row, j), 0.0f);
  // Every other row is the same under both softmaxes (no overflow at these magnitudes).
  for (int i = 0; i < d.n; ++i)
    if (i != row)
      for (int j = 0; j < d.n; ++j) EXPECT_NEAR(c.weights_wrong(i, j), c.weights_right(i, j), 1e-6);
}

}  // namespace
