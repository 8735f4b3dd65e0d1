// The lesson texts' worked examples, recomputed from first principles. Each expected value
// is a closed-form expression evaluated here in double precision, not a number copied from
// the texts (one of their printed results is wrong; see CausalThreeByTwo).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "reference.h"

namespace {

attn::Trace run(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                int nq, int nk, int d, float scale, attn::Causal causal) {
  attn::Shape s;
  s.nq = nq; s.nk = nk; s.dk = d; s.dv = d;
  attn::Options o;
  o.scale = scale;
  o.causal = causal;
  return attn::reference_forward({s, q.data(), k.data(), v.data()}, o);
}

}  // namespace

// Q = K = V = [[1,0],[2,0],[3,0]], d_k = 2, causal. Row i's scores are (i+1)(j+1)/√2 over
// the keys j <= i, so the weights are softmaxes of those closed forms.
TEST(Seeds, CausalThreeByTwo) {
  const std::vector<float> x{1, 0, 2, 0, 3, 0};
  const attn::Trace t = run(x, x, x, 3, 3, 2, 1.0f / std::sqrt(2.0f), attn::Causal::top_left);
  const attn::HeadTrace& h = t.heads[0];
  const double r2 = std::sqrt(2.0);

  EXPECT_DOUBLE_EQ(h.weights(0, 0), 1.0);
  EXPECT_EQ(h.weights(0, 1), 0.0f);
  EXPECT_EQ(h.weights(0, 2), 0.0f);

  const double a10 = 1.0 / (1.0 + std::exp(4 / r2 - 2 / r2));  // e^{2/√2} / (e^{2/√2}+e^{4/√2})
  EXPECT_NEAR(h.weights(1, 0), a10, 1e-6);
  EXPECT_NEAR(h.weights(1, 1), 1 - a10, 1e-6);
  EXPECT_NEAR(h.output(1, 0), a10 * 1 + (1 - a10) * 2, 1e-6);

  const double e0 = std::exp(3 / r2), e1 = std::exp(6 / r2), e2 = std::exp(9 / r2);
  const double z = e0 + e1 + e2;
  EXPECT_NEAR(h.weights(2, 0), e0 / z, 1e-6);
  EXPECT_NEAR(h.weights(2, 1), e1 / z, 1e-6);
  EXPECT_NEAR(h.weights(2, 2), e2 / z, 1e-6);
  EXPECT_NEAR(h.output(2, 0), (e0 * 1 + e1 * 2 + e2 * 3) / z, 1e-5);
  // The lesson prints row 2 as [0.063, 0.262, 0.675] and O[2] = 2.612: those are wrong
  // (the true weights are about [0.013, 0.106, 0.882] and O[2] about 2.869).
  EXPECT_GT(std::fabs(h.weights(2, 2) - 0.675), 0.1);
  EXPECT_GT(std::fabs(h.output(2, 0) - 2.612), 0.2);
}

// Scores [0, d_k, 2·d_k] at d_k = 64 under the three scale factors: the softmax of
// [0, c, 2c] is [1, e^c, e^{2c}] / (1 + e^c + e^{2c}) with c = 64·scale.
TEST(Seeds, SaturationUnderThreeScales) {
  const std::vector<float> q{1.0f}, k{0.0f, 64.0f, 128.0f}, v{0.0f, 1.0f, 2.0f};
  for (const double scale : {1.0, 1.0 / 8.0, 1.0 / 64.0}) {
    SCOPED_TRACE("scale " + std::to_string(scale));
    attn::Shape s;
    s.nq = 1; s.nk = 3; s.dk = 1; s.dv = 1;
    attn::Options o;
    o.scale = float(scale);
    const attn::Trace t = attn::reference_forward({s, q.data(), k.data(), v.data()}, o);
    const double c = 64 * scale;
    // Divided through by e^{2c} so the unscaled case stays representable in double.
    const double z = std::exp(-2 * c) + std::exp(-c) + 1.0;
    EXPECT_NEAR(t.heads[0].weights(0, 0), std::exp(-2 * c) / z, 1e-7);
    EXPECT_NEAR(t.heads[0].weights(0, 1), std::exp(-c) / z, 1e-7);
    EXPECT_NEAR(t.heads[0].weights(0, 2), 1.0 / z, 1e-6);
  }
}

// The variance argument: for q, k with independent unit-variance components, Var(q·k) = d_k,
// and Var(q·k/√d_k) = 1. Measured on 20000 pairs with a fixed seed; the standard error of a
// sample variance of near-normal data is about √(2/n)·σ², so 5% is more than 6 of them.
TEST(Seeds, VarianceOfDotProductsGrowsWithDk) {
  std::mt19937 rng(17);
  std::normal_distribution<float> normal;
  for (const int dk : {4, 64, 256}) {
    SCOPED_TRACE("d_k " + std::to_string(dk));
    const int n = 20000;
    attn::Shape s;
    s.nq = n; s.nk = 1; s.dk = dk; s.dv = 1;
    std::vector<float> q(std::size_t(n) * dk), k(dk), v{1.0f};
    for (float& x : q) x = normal(rng);
    for (float& x : k) x = normal(rng);
    // Pairs (q_i, k) with fresh keys would be independent too; here k is fixed per d_k, so
    // Var(q·k) = |k|², whose expectation is d_k: normalise k to exactly that length.
    double norm2 = 0;
    for (float x : k) norm2 += double(x) * x;
    for (float& x : k) x = float(x * std::sqrt(dk / norm2));
    attn::Options o;
    o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, dk);
    const attn::Trace t = attn::reference_forward({s, q.data(), k.data(), v.data()}, o);
    const auto variance = [](const attn::Matrix& m) {
      const double mean = m.cast<double>().mean();
      return (m.cast<double>().array() - mean).square().sum() / double(m.size() - 1);
    };
    EXPECT_NEAR(variance(t.heads[0].raw), dk, 0.05 * dk);
    EXPECT_NEAR(variance(t.heads[0].scaled), 1.0, 0.05);
  }
}
