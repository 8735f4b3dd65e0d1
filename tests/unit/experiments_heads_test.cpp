// The heads experiment against the float64 attention: per-head weights, the concatenation,
// grouped-query sharing and cross-attention shapes.
#include <gtest/gtest.h>

#include "float64_attention.h"
#include "heads.h"
#include "sampling.h"

using namespace testing_ref;

namespace {

TEST(ExperimentsHeads, HeadsMatchFloat64AndConcatenate) {
  const int heads = 4, kv_heads = 2, nq = 3, nk = 5, dk = 6, dv = 2;
  const experiments::HeadsData d = experiments::heads(heads, kv_heads, nq, nk, dk, dv, 13);
  // The same seeded inputs, attended in float64.
  const experiments::Problem p = experiments::random_problem(d.shape, 13);
  Problem64 p64;
  p64.heads = heads;
  p64.kv_heads = kv_heads;
  p64.nq = nq;
  p64.nk = nk;
  p64.dk = dk;
  p64.dv = dv;
  p64.q.assign(p.q.begin(), p.q.end());
  p64.k.assign(p.k.begin(), p.k.end());
  p64.v.assign(p.v.begin(), p.v.end());
  p64.scale = 1 / std::sqrt(double(dk));
  const Result64 want = attention64(p64);

  ASSERT_EQ(int(d.heads.size()), heads);
  for (const experiments::HeadView& h : d.heads) {
    for (int i = 0; i < nq; ++i) {
      for (int j = 0; j < nk; ++j)
        EXPECT_NEAR(h.weights(i, j), want.weights[(std::size_t(h.head) * nq + i) * nk + j], 1e-6);
      for (int c = 0; c < dv; ++c) {
        const double o = want.output[(std::size_t(h.head) * nq + i) * dv + c];
        EXPECT_NEAR(h.output(i, c), o, 1e-5);
        EXPECT_EQ(d.concatenated(i, h.head * dv + c), h.output(i, c));
      }
    }
  }
}

TEST(ExperimentsHeads, GroupedQueryHeadsShareKeyValueHeads) {
  const experiments::HeadsData d = experiments::heads(6, 2, 4, 4, 4, 4, 1);
  const std::vector<std::vector<int>> want{{0, 1, 2}, {3, 4, 5}};
  EXPECT_EQ(d.groups, want);
  for (const experiments::HeadView& h : d.heads) EXPECT_EQ(h.kv_head, h.head / 3);
  // Heads that share K and V still differ through their own queries.
  EXPECT_GT((d.heads[0].weights - d.heads[1].weights).cwiseAbs().maxCoeff(), 0.0f);
}

TEST(ExperimentsHeads, CrossAttentionShapes) {
  const experiments::HeadsData d = experiments::heads(2, 1, 3, 7, 5, 4, 2);
  EXPECT_TRUE(d.cross);
  EXPECT_EQ(d.q_shape, (std::array<int, 4>{1, 2, 3, 5}));
  EXPECT_EQ(d.k_shape, (std::array<int, 4>{1, 1, 7, 5}));
  EXPECT_EQ(d.v_shape, (std::array<int, 4>{1, 1, 7, 4}));
  EXPECT_EQ(d.weights_shape, (std::array<int, 4>{1, 2, 3, 7}));
  EXPECT_EQ(d.output_shape, (std::array<int, 4>{1, 2, 3, 4}));
  EXPECT_EQ(d.concat_shape, (std::array<int, 3>{1, 3, 8}));
  EXPECT_EQ(d.concatenated.rows(), 3);
  EXPECT_EQ(d.concatenated.cols(), 8);
  EXPECT_EQ(d.heads[0].weights.cols(), 7);
}

TEST(ExperimentsHeads, RejectsInvalidShapes) {
  EXPECT_THROW(experiments::heads(3, 2, 4, 4, 4, 4, 1), std::invalid_argument);  // 3 heads over 2 groups
  EXPECT_THROW(experiments::heads(2, 1, 0, 4, 4, 4, 1), std::invalid_argument);
  EXPECT_THROW(experiments::heads(2, 1, 4, 4, 4, 1000, 1), std::invalid_argument);
}

}  // namespace
