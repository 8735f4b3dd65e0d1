// The backward pass against central finite differences of the float64 forward pass.
#include <gtest/gtest.h>

#include <random>

#include "random_problem.h"
#include "reference.h"

using namespace testing_ref;

namespace {

// L = Σ dO ⊙ O, so dL/dO = dO and the finite differences of L check dL/dq, dL/dk, dL/dv.
double loss(const Problem64& p, const std::vector<double>& d_output) {
  const Result64 r = attention64(p);
  double l = 0;
  for (std::size_t i = 0; i < r.output.size(); ++i) l += d_output[i] * r.output[i];
  return l;
}

void check_gradient(Problem64 p, std::vector<double> Problem64::*field, const std::vector<float>& analytic,
                    const std::vector<double>& d_output, const char* name) {
  const double h = 1e-6;
  std::vector<double>& x = p.*field;
  ASSERT_EQ(x.size(), analytic.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = loss(p, d_output);
    x[i] = keep - h;
    const double down = loss(p, d_output);
    x[i] = keep;
    const double numeric = (up - down) / (2 * h);
    ASSERT_TRUE(close(analytic[i], numeric, 1e-4, 1e-3))
        << name << "[" << i << "]: analytic " << analytic[i] << ", finite differences " << numeric;
  }
}

}  // namespace

TEST(Backward, MatchesCentralFiniteDifferences) {
  std::mt19937 rng(31);
  Ranges r;
  r.max_n = 7;
  r.max_d = 5;
  r.max_heads = 2;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomProblem p = random_problem(rng, r);
    std::normal_distribution<float> normal;
    std::vector<float> d_output(p.shape.out_size());
    for (float& x : d_output) x = normal(rng);
    const std::vector<double> d_output64(d_output.begin(), d_output.end());

    const attn::Trace t = attn::reference_forward(p.inputs(), p.options);
    const attn::Gradients g = attn::reference_backward(p.inputs(), p.options, t, d_output.data());
    check_gradient(p.p64, &Problem64::q, g.dq, d_output64, "dq");
    check_gradient(p.p64, &Problem64::k, g.dk, d_output64, "dk");  // summed over shared heads
    check_gradient(p.p64, &Problem64::v, g.dv, d_output64, "dv");
  }
}

TEST(Backward, SaturatedSoftmaxPassesAlmostNoGradient) {
  // One query, three keys with scores 0, 64, 128 (the lesson's d_k = 64 example, unscaled):
  // the softmax is one-hot, so dL/dS is ~0 for every key.
  attn::Shape s;
  s.nq = 1; s.nk = 3; s.dk = 1; s.dv = 1;
  const std::vector<float> q{1.0f}, k{0.0f, 64.0f, 128.0f}, v{1.0f, -1.0f, 2.0f}, d_out{1.0f};
  attn::Options o;
  const attn::Inputs in{s, q.data(), k.data(), v.data()};
  const auto max_ds = [&](float scale) {
    o.scale = scale;
    const attn::Trace t = attn::reference_forward(in, o);
    return attn::reference_backward(in, o, t, d_out.data()).heads[0].d_scores.cwiseAbs().maxCoeff();
  };
  EXPECT_LT(max_ds(1.0f), 1e-20f);         // no scaling: vanishing
  EXPECT_GT(max_ds(1.0f / 64.0f), 0.1f);   // scores 0, 1, 2: healthy
}
