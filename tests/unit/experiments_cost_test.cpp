// Experiment "cost": the lesson's formulas against counts made here (operations of a naive
// loop, the bytes of a real reference trace, the seed's own byte count), and one whole
// measurement's bookkeeping. No assertion on a time: only on how the times are gathered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cost.h"
#include "reference.h"
#include "sampling.h"
#include "simd.h"

namespace {

using namespace experiments;

// Floating-point operations of softmax(QKᵀ)V's two products, counted one by one in the
// naive loops (one multiply and one add per term).
double counted_product_flops(int n, int d) {
  double ops = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int a = 0; a < d; ++a) ops += 2;  // S_ij += q_ia k_ja
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c)
      for (int j = 0; j < n; ++j) ops += 2;  // O_ic += A_ij v_jc
  return ops;
}

TEST(CostFormulas, FlopsCountTheTwoProducts) {
  for (int n : {1, 3, 17, 64})
    for (int d : {2, 16, 64}) EXPECT_EQ(attention_flops(n, d), counted_product_flops(n, d)) << n << " " << d;
  // The seed's worked numbers: about 4 MFLOP at T = 256, d_k = 16; about 1 GFLOP at 2048, 64.
  EXPECT_NEAR(attention_flops(256, 16), 4.19e6, 0.01e6);
  EXPECT_NEAR(attention_flops(2048, 64), 1.07e9, 0.01e9);
}

TEST(CostFormulas, ReferenceBytesAreItsTracesSquareMatrices) {
  // A real reference call at n = 8: every n × n matrix it keeps, counted from the trace.
  attn::Shape s;
  s.nq = s.nk = 8;
  s.dk = s.dv = 4;
  const Problem p = random_problem(s, 3);
  attn::Options o;
  o.scale = 0.5f;
  const attn::Trace trace = attn::reference_forward(p.inputs(), o);
  const attn::HeadTrace& t = trace.heads.front();
  double square = 0;
  for (const attn::Matrix* m : {&t.raw, &t.scaled, &t.mask, &t.masked, &t.exps, &t.weights, &t.output})
    if (m->rows() == 8 && m->cols() == 8) square += 4.0 * double(m->size());
  EXPECT_EQ(reference_bytes(8), square);
  EXPECT_EQ(score_bytes(8), 4.0 * 64);
  // The seed: 16 MiB of scores per head at T = 2048 in float32.
  EXPECT_EQ(score_bytes(2048), 16.0 * 1024 * 1024);
}

TEST(CostFormulas, TiledScratchIsTheKernelsBuffersAndIndependentOfN) {
  // tiled.cpp's scratch at d_k = 64: the packed K tile (64 × 64 keys), the packed queries and
  // the block's S/P (512 rows × 64 each), m and l (512 each), the per-lane maxima (512 × lanes).
  const double floats = 64.0 * 64 + 512 * 64 + 512 * 64 + 2 * 512 + 512.0 * attn::simd::kLanes;
  EXPECT_EQ(tiled_bytes(64), 4 * floats);
  const CostData d = cost_plan(1e12);
  for (double b : d.tiled_bytes) EXPECT_EQ(b, 4 * floats);
}

TEST(CostFormulas, IntensityFollowsTheSeedsByteCountNotItsFormula) {
  // The seed counts 2T²d_k FLOPs over 8Td_k + 4T² bytes; its closed form T·d_k / (4(d_k + T))
  // does not follow from that count (at T = d_k = 64: 10.67 against 8).
  for (int n : {64, 256, 4096, 65536}) {
    const double t = n, d = 64;
    EXPECT_NEAR(qk_intensity(n, 64), 2 * t * t * d / (8 * t * d + 4 * t * t), 1e-9 * t);
  }
  EXPECT_NEAR(qk_intensity(64, 64), 64.0 / 6, 1e-12);
  EXPECT_GT(std::fabs(qk_intensity(64, 64) - 64.0 * 64 / (4 * (64 + 64))), 2);
  EXPECT_NEAR(qk_intensity(1 << 24, 64), 32, 0.01);  // d_k / 2 for long sequences
  // The whole reference call: 4n²d_k FLOPs over 16nd_k bytes of Q, K, V, O and six n × n
  // matrices each written and read (48n²), tending to d_k / 12.
  EXPECT_NEAR(reference_intensity(64, 64), 4.0 * 64 * 64 * 64 / (16.0 * 64 * 64 + 48.0 * 64 * 64), 1e-9);
  EXPECT_NEAR(reference_intensity(1 << 24, 64), 64.0 / 12, 0.01);
  // The tiled kernel reading Q, K, V once and writing O once: 4n²d FLOPs over 16nd bytes.
  for (int n : {64, 1024, 4096}) EXPECT_DOUBLE_EQ(tiled_intensity(n, 64), n / 4.0);
}

TEST(CostPlan, SizesAndWhatFits) {
  const double limit = 100.0 * 1024 * 1024;
  const CostData d = cost_plan(limit);
  EXPECT_EQ(d.sizes, (std::vector<int>{64, 128, 256, 512, 1024, 2048, 4096}));
  for (std::size_t i = 0; i < d.sizes.size(); ++i) {
    const double n = d.sizes[i];
    EXPECT_EQ(d.fits[i], 24 * n * n <= limit) << n;  // 2048: 96 MiB fits, 4096: 384 MiB does not
    EXPECT_TRUE(std::isnan(d.reference_ms[i]) && std::isnan(d.tiled_ms[i]));
  }
  EXPECT_EQ(d.memory_n.front(), 64);
  EXPECT_EQ(d.memory_n.back(), 65536);
  EXPECT_EQ(d.status, CostStatus::idle);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

TEST(CostMeasurement, RunsToTheEndInSlicesAndKeepsMedians) {
  // A limit of 8 MiB: the reference runs up to n = 512 (6 MiB), the tiled kernel at every size.
  CostMeasurement m(8.0 * 1024 * 1024);
  EXPECT_EQ(m.data().status, CostStatus::running);
  double progress = 0;
  int slices = 0;
  while (!m.finished()) {
    m.advance(5);
    ++slices;
    EXPECT_GE(m.data().progress, progress);
    progress = m.data().progress;
    ASSERT_LT(slices, 100000);
  }
  const CostData& d = m.data();
  EXPECT_GT(slices, 2);  // the work was sliced
  EXPECT_EQ(d.status, CostStatus::done);
  EXPECT_EQ(d.progress, 1);
  EXPECT_TRUE(d.activity.empty());
  EXPECT_GT(d.peak_gflops, 0);
  EXPECT_GT(d.bandwidth_gbs, 0);
  EXPECT_DOUBLE_EQ(d.balance, d.peak_gflops / d.bandwidth_gbs);
  for (std::size_t i = 0; i < d.sizes.size(); ++i) {
    const int n = d.sizes[i];
    EXPECT_EQ(d.fits[i], n <= 512) << n;
    EXPECT_EQ(int(d.tiled_samples[i].size()), cost_repetitions(n));
    EXPECT_EQ(d.tiled_ms[i], median_of(d.tiled_samples[i]));
    EXPECT_GT(d.tiled_ms[i], 0);
    EXPECT_DOUBLE_EQ(d.tiled_gflops[i], attention_flops(n, 64) / (d.tiled_ms[i] * 1e6));
    if (d.fits[i]) {
      EXPECT_EQ(int(d.reference_samples[i].size()), cost_repetitions(n));
      EXPECT_EQ(d.reference_ms[i], median_of(d.reference_samples[i]));
      EXPECT_DOUBLE_EQ(d.reference_gflops[i], attention_flops(n, 64) / (d.reference_ms[i] * 1e6));
    } else {
      EXPECT_TRUE(d.reference_samples[i].empty());
      EXPECT_TRUE(std::isnan(d.reference_ms[i]));
    }
  }
}

}  // namespace
