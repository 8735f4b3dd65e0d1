// The reference forward pass against the independent float64 computation, over random
// shapes, masks and alignments, plus the properties the lesson relies on.
#include <gtest/gtest.h>

#include <random>

#include "random_problem.h"
#include "reference.h"

using namespace testing_ref;

namespace {

void expect_matches_float64(const RandomProblem& p, const attn::Trace& t, const Result64& want) {
  const std::vector<float> out = t.gather(&attn::HeadTrace::output);
  const std::vector<float> w = t.gather(&attn::HeadTrace::weights);
  ASSERT_EQ(out.size(), want.output.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_TRUE(close(out[i], want.output[i], 2e-5, 1e-4)) << "output[" << i << "] " << out[i] << " vs " << want.output[i];
  for (std::size_t i = 0; i < w.size(); ++i)
    ASSERT_TRUE(close(w[i], want.weights[i], 2e-6, 1e-4)) << "weights[" << i << "]";
  (void)p;
}

}  // namespace

TEST(Reference, MatchesFloat64OnRandomProblems) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomProblem p = random_problem(rng);
    const attn::Trace t = attn::reference_forward(p.inputs(), p.options);
    expect_matches_float64(p, t, attention64(p.p64));
  }
}

TEST(Reference, LongRowsAndSingleQuery) {
  std::mt19937 rng(99);
  Ranges r;
  r.max_n = 1500;
  r.max_batch = 1;
  r.max_heads = 1;
  for (int trial = 0; trial < 6; ++trial) {
    RandomProblem p = random_problem(rng, r);
    const attn::Trace t = attn::reference_forward(p.inputs(), p.options);
    expect_matches_float64(p, t, attention64(p.p64));
  }
}

TEST(Reference, RowsOfWeightsSumToOneOrAreFullyBlocked) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const RandomProblem p = random_problem(rng);
    const attn::Trace t = attn::reference_forward(p.inputs(), p.options);
    for (const attn::HeadTrace& h : t.heads)
      for (int i = 0; i < p.shape.nq; ++i) {
        const double sum = h.weights.row(i).cast<double>().sum();
        const bool blocked = (h.masked.row(i).array() == attn::kNegInf).all();
        if (blocked) {
          EXPECT_EQ(sum, 0.0);
          EXPECT_TRUE((h.output.row(i).array() == 0.0f).all()) << "a fully masked row must give exactly 0";
        } else {
          EXPECT_NEAR(sum, 1.0, 1e-5);
        }
      }
  }
}

TEST(Reference, TraceStagesFollowTheDefinition) {
  std::mt19937 rng(5);
  const RandomProblem p = random_problem(rng);
  const attn::Trace t = attn::reference_forward(p.inputs(), p.options);
  const Result64 want = attention64(p.p64);
  for (std::size_t hi = 0; hi < t.heads.size(); ++hi) {
    const attn::HeadTrace& h = t.heads[hi];
    for (int i = 0; i < p.shape.nq; ++i)
      for (int j = 0; j < p.shape.nk; ++j) {
        const double s = want.scores[(hi * p.shape.nq + i) * p.shape.nk + j];
        EXPECT_FLOAT_EQ(h.scaled(i, j), h.raw(i, j) * p.options.scale);
        if (std::isinf(s)) EXPECT_EQ(h.masked(i, j), attn::kNegInf);
        else EXPECT_TRUE(close(h.masked(i, j), s, 1e-5, 1e-5));
      }
  }
}

TEST(Reference, HugeScoresStayFiniteWithTheStableSoftmax) {
  // Scores of about ±1e4: e^score overflows float32 (max ≈ e^88.7), the stable form does not.
  attn::Shape s;
  s.nq = 2; s.nk = 3; s.dk = 1; s.dv = 1;
  const std::vector<float> q{100.0f, -100.0f}, k{100.0f, 50.0f, -100.0f}, v{1.0f, 2.0f, 3.0f};
  attn::Options o;
  o.scale = 1.0f;
  const attn::Inputs in{s, q.data(), k.data(), v.data()};
  const attn::Trace stable = attn::reference_forward(in, o);
  EXPECT_TRUE(stable.heads[0].weights.allFinite());
  EXPECT_FLOAT_EQ(stable.heads[0].output(0, 0), 1.0f);
  EXPECT_FLOAT_EQ(stable.heads[0].output(1, 0), 3.0f);

  o.softmax = attn::Softmax::naive;  // kept so the interface can show the overflow
  const attn::Trace naive = attn::reference_forward(in, o);
  EXPECT_TRUE(std::isinf(naive.heads[0].exps(0, 0)));
  EXPECT_TRUE(std::isnan(naive.heads[0].weights(0, 0)));
}

TEST(Reference, MaskFillPitfalls) {
  // Causal 2×2 with equal scores: query 0 must not see key 1. −∞ blocks it entirely,
  // −1e9 practically, and the lesson's wrong −1 and 0 leak weight to the future.
  attn::Shape s;
  s.nq = 2; s.nk = 2; s.dk = 1; s.dv = 1;
  const std::vector<float> q{0.0f, 0.0f}, k{0.0f, 0.0f}, v{1.0f, 5.0f};
  attn::Options o;
  o.causal = attn::Causal::top_left;
  const attn::Inputs in{s, q.data(), k.data(), v.data()};
  const auto leak = [&](float fill) {
    o.mask_fill = fill;
    return double(attn::reference_forward(in, o).heads[0].weights(0, 1));
  };
  EXPECT_EQ(leak(attn::kNegInf), 0.0);
  EXPECT_LT(leak(-1e9f), 1e-30);
  EXPECT_NEAR(leak(-1.0f), std::exp(-1.0) / (1.0 + std::exp(-1.0)), 1e-6);
  EXPECT_NEAR(leak(0.0f), 0.5, 1e-6);
}

TEST(Reference, ScaleModes) {
  EXPECT_FLOAT_EQ(attn::scale_for(attn::ScaleMode::inv_sqrt_dk, 64), 0.125f);
  EXPECT_FLOAT_EQ(attn::scale_for(attn::ScaleMode::none, 64), 1.0f);
  EXPECT_FLOAT_EQ(attn::scale_for(attn::ScaleMode::inv_dk, 64), 1.0f / 64);
  EXPECT_FLOAT_EQ(attn::scale_for(attn::ScaleMode::custom, 64, 0.3f), 0.3f);
}

TEST(Forward, BothKernelsAgreeWithFloat64) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomProblem p = random_problem(rng);
    const Result64 want = attention64(p.p64);
    for (attn::Kernel kernel : {attn::Kernel::reference, attn::Kernel::tiled, attn::Kernel::automatic}) {
      std::vector<float> out(p.shape.out_size());
      attn::forward(p.inputs(), p.options, out.data(), kernel);
      for (std::size_t i = 0; i < out.size(); ++i)
        ASSERT_TRUE(close(out[i], want.output[i], 2e-5, 1e-4))
            << "kernel " << int(kernel) << " output[" << i << "] " << out[i] << " vs " << want.output[i];
    }
  }
}
