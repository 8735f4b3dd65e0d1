// The online softmax walk against the float64 attention and both kernels, and its recorded
// recurrence against the float64 row maximum and sum.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "online_softmax_walk.h"
#include "random_problem.h"
#include "tiled.h"
#include "tiling.h"

using namespace testing_ref;

namespace {

// Against the float64 attention and the SIMD tiled kernel, over masks, causal alignments,
// grouped heads and every tile size.
TEST(ExperimentsTiling, WalkMatchesFloat64AndTheTiledKernel) {
  std::mt19937 rng(61);
  for (int trial = 0; trial < 40; ++trial) {
    const RandomProblem p = random_problem(rng);
    const Result64 want = attention64(p.p64);
    const attn::Shape& s = p.shape;
    const int tile = std::uniform_int_distribution<int>(1, s.nk)(rng);
    std::vector<float> tiled(s.out_size());
    attn::tiled_forward(p.inputs(), p.options, tiled.data());
    for (int b = 0; b < s.batch; ++b)
      for (int h = 0; h < s.heads; ++h) {
        const attn::OnlineSoftmaxWalk w = attn::online_softmax_walk(p.inputs(), p.options, tile, b, h);
        const std::size_t base = (std::size_t(b) * s.heads + h) * s.nq * s.dv;
        for (int i = 0; i < s.nq; ++i)
          for (int c = 0; c < s.dv; ++c) {
            const std::size_t at = base + std::size_t(i) * s.dv + c;
            ASSERT_TRUE(close(w.output(i, c), want.output[at], 1e-5, 1e-4))
                << "trial " << trial << " head " << h << " row " << i << ": " << w.output(i, c);
            ASSERT_TRUE(close(w.output(i, c), tiled[at], 1e-5, 1e-4)) << "trial " << trial;
          }
      }
  }
}

TEST(ExperimentsTiling, RecurrenceEndsAtTheRowMaxAndSum) {
  for (const int tile : {1, 5, 16, 30}) {
    const experiments::TilingData d = experiments::tiling(30, tile, 8);
    const attn::OnlineSoftmaxWalk& w = d.walk;
    ASSERT_EQ(w.tiles, (30 + tile - 1) / tile);
    const int last = w.tiles - 1;
    for (int i = 0; i < d.n; ++i) {
      // The running maximum never falls, and the rescale factor is e^(m_before − m_after).
      for (int t = 1; t < w.tiles; ++t) {
        EXPECT_GE(w.running_max(i, t), w.running_max(i, t - 1));
        EXPECT_NEAR(w.rescale(i, t), std::exp(double(w.running_max(i, t - 1)) - w.running_max(i, t)), 1e-6);
      }
      // After the last tile, o / l is the output.
      for (int c = 0; c < d.dv; ++c)
        EXPECT_NEAR(w.partial_output[std::size_t(last)](i, c) / w.running_sum(i, last), d.reference_output(i, c), 1e-5);
    }
    EXPECT_LT(d.walk_difference, 1e-5);
    EXPECT_LT(d.tiled_difference, 1e-5);
  }
}

TEST(ExperimentsTiling, FinalMaxAndSumEqualFloat64) {
  std::mt19937 rng(5);
  Ranges r;
  r.masks = false;
  r.max_batch = r.max_heads = 1;
  const RandomProblem p = random_problem(rng, r);
  const attn::Shape& s = p.shape;
  const attn::OnlineSoftmaxWalk w = attn::online_softmax_walk(p.inputs(), p.options, 3);
  const Result64 want = attention64(p.p64);
  for (int i = 0; i < s.nq; ++i) {
    double m = -INFINITY;
    for (int j = 0; j < s.nk; ++j) m = std::max(m, want.scores[std::size_t(i) * s.nk + j]);
    double l = 0;
    for (int j = 0; j < s.nk; ++j) l += std::exp(want.scores[std::size_t(i) * s.nk + j] - m);
    if (m == -INFINITY) continue;
    EXPECT_NEAR(w.running_max(i, w.tiles - 1), m, 1e-5 * std::max(1.0, std::fabs(m)));
    EXPECT_NEAR(w.running_sum(i, w.tiles - 1), l, 1e-5 * l);
  }
}

TEST(ExperimentsTiling, ScoresGrowAsNSquaredTilesDoNot) {
  const experiments::TilingData d = experiments::tiling(16, 4, 1);
  for (std::size_t i = 0; i < d.memory_n.size(); ++i) {
    EXPECT_EQ(d.score_bytes[i], 4.0 * d.memory_n[i] * d.memory_n[i]);
    EXPECT_EQ(d.tiled_bytes[i], d.tiled_bytes[0]);
  }
  EXPECT_LT(d.tiled_bytes.back(), 1e-6 * d.score_bytes.back());
}

TEST(ExperimentsTiling, RejectsBadSizes) {
  EXPECT_THROW(experiments::tiling(0, 1, 1), std::invalid_argument);
  EXPECT_THROW(experiments::tiling(8, 9, 1), std::invalid_argument);
  EXPECT_THROW(experiments::tiling(experiments::kTilingMaxN + 1, 4, 1), std::invalid_argument);
}

}  // namespace
