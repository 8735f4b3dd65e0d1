// The tiled kernel against the tests' float64 attention (float64_attention.h), over loops of
// random shapes and options in ggml's test-backend-ops style, sized to reach the kernel's
// edges: d = 1 and odd widths (scalar tails), one query, rows longer than a key tile, query
// blocks that end mid register block, n_q ≠ n_k, d_v ≠ d_k, grouped-query heads, both causal
// alignments, boolean and additive broadcast masks, padding, fully masked rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

#include "random_problem.h"
#include "reference.h"
#include "relaxed/relaxed.h"
#include "simd.h"
#include "tiled.h"

namespace {

using testing_ref::RandomProblem;

std::string describe(const attn::Shape& s) {
  return "batch " + std::to_string(s.batch) + " heads " + std::to_string(s.heads) + "/" +
         std::to_string(s.kv_heads) + " nq " + std::to_string(s.nq) + " nk " + std::to_string(s.nk) +
         " dk " + std::to_string(s.dk) + " dv " + std::to_string(s.dv);
}

std::vector<float> run_tiled(const RandomProblem& p) {
  std::vector<float> out(p.shape.out_size(), -12345.0f);  // garbage the kernel must overwrite
  attn::tiled_forward(p.inputs(), p.options, out.data());
  return out;
}

// llm.c's validate_result: the tolerance grows with the size of the expected value. An exact
// 0 in float64 comes from a row with no visible key (random values never give one), and the
// contract wants exactly 0 there too. Returns the output so tests can check more.
std::vector<float> expect_matches_float64(const RandomProblem& p, double atol = 2e-5) {
  const std::vector<float> got = run_tiled(p);
  const std::vector<double> want = testing_ref::attention64(p.p64).output;
  EXPECT_EQ(got.size(), want.size());
  int reported = 0;
  for (std::size_t n = 0; n < want.size() && n < got.size(); ++n)
    if (!(want[n] == 0.0 ? got[n] == 0.0f : testing_ref::close(got[n], want[n], atol, 1e-4)) &&
        reported++ < 5)
      ADD_FAILURE() << describe(p.shape) << " causal " << int(p.options.causal) << " mask "
                    << int(p.options.mask.kind) << ": output[" << n << "] = " << got[n]
                    << ", expected " << want[n];
  return got;
}

TEST(Tiled, RandomShapesAndOptions) {
  std::mt19937 rng(20240601);
  testing_ref::Ranges ranges;
  ranges.max_n = 150;  // past a 64-key tile, ending anywhere in a register block
  ranges.max_d = 80;   // past every vector width, with odd tails
  for (int t = 0; t < 300; ++t) expect_matches_float64(testing_ref::random_problem(rng, ranges));
}

// Rows longer than many key tiles, and queries spanning several 256-row query blocks.
TEST(Tiled, LongRows) {
  std::mt19937 rng(7);
  testing_ref::Ranges ranges;
  ranges.max_batch = ranges.max_heads = 1;
  ranges.max_n = 1000;
  ranges.max_d = 70;
  for (int t = 0; t < 8; ++t) expect_matches_float64(testing_ref::random_problem(rng, ranges));
}

// Scores in the hundreds: a naive softmax would overflow; the running maximum must not.
// Float32 dot products that large are off by ~1e-4 in absolute terms (more without fused
// multiply-add, as in WebAssembly), which e^s passes on to the weights: hence the atol.
TEST(Tiled, LargeScoresStayFinite) {
  std::mt19937 rng(11);
  testing_ref::Ranges ranges;
  ranges.max_n = 200;
  ranges.magnitude = 8.0;
  for (int t = 0; t < 20; ++t) expect_matches_float64(testing_ref::random_problem(rng, ranges), 2e-4);
}

// Key padding: a (batch, 1, 1, nk) boolean mask hiding the tail of each sequence, down to
// all of it (rows that must come out exactly 0).
TEST(Tiled, PaddingMask) {
  std::mt19937 rng(3);
  testing_ref::Ranges ranges;
  ranges.masks = false;
  ranges.max_n = 130;
  for (int t = 0; t < 30; ++t) {
    RandomProblem p = testing_ref::random_problem(rng, ranges);
    const attn::Shape& s = p.shape;
    attn::Mask& m = p.options.mask;
    m.kind = attn::Mask::Kind::boolean;
    m.dims = {s.batch, 1, 1, s.nk};
    m.values.assign(std::size_t(s.batch) * s.nk, 1.0f);
    p.p64.mask.assign(std::size_t(s.batch) * s.heads * s.nq * s.nk, 0.0);
    for (int b = 0; b < s.batch; ++b) {
      const int valid = std::uniform_int_distribution<int>(0, s.nk)(rng);
      for (int j = valid; j < s.nk; ++j) {
        m.values[std::size_t(b) * s.nk + j] = 0.0f;
        for (int hi = 0; hi < s.heads * s.nq; ++hi)
          p.p64.mask[(std::size_t(b) * s.heads * s.nq + hi) * s.nk + j] = -INFINITY;
      }
    }
    expect_matches_float64(p);
  }
}

// A row with no visible key gives exactly 0, never NaN: here by a bottom-right causal
// alignment with fewer keys than queries (masks do it in the random loops too).
TEST(Tiled, RowsWithoutKeysAreExactlyZero) {
  std::mt19937 rng(5);
  testing_ref::Ranges ranges;
  ranges.masks = false;
  for (int t = 0; t < 30; ++t) {
    RandomProblem p = testing_ref::random_problem(rng, ranges);
    if (p.shape.nk >= p.shape.nq) continue;
    p.options.causal = attn::Causal::bottom_right;
    p.p64.causal_offset_enabled = 2;
    const std::vector<float> out = expect_matches_float64(p);
    const attn::Shape& s = p.shape;
    const int blind_rows = s.nq - s.nk;  // rows i with i + nk − nq < 0
    for (int bh = 0; bh < s.batch * s.heads; ++bh)
      for (int i = 0; i < blind_rows; ++i)
        for (int d = 0; d < s.dv; ++d)
          ASSERT_EQ(out[(std::size_t(bh) * s.nq + i) * s.dv + d], 0.0f) << describe(s) << " row " << i;
  }
}

}  // namespace

// simd.h's maximum keeps a NaN first operand on every instruction set, so a row with a NaN
// score (or +∞ − +∞ from scores past float32) is NaN in the tiled kernel, as in the
// reference, whatever the target; before, x86 answered 0 there and WebAssembly NaN.
TEST(Tiled, NaNScoresGiveNaNRowsOnEveryTarget) {
  namespace simd = attn::simd;
  float lanes[simd::kLanes];
  simd::store(lanes, simd::max(simd::splat(NAN), simd::splat(1.0f)));
  EXPECT_TRUE(std::isnan(lanes[0]));
  simd::store(lanes, simd::max(simd::splat(1.0f), simd::splat(NAN)));
  EXPECT_EQ(lanes[0], 1.0f);

  // 130 queries and keys: whole vectors, scalar tails and more than one key tile. Query 3
  // holds a NaN; key 7 is huge, and so is query 5, whose score with it is +∞.
  const attn::Shape s{1, 1, 1, 130, 130, 8, 8};
  std::vector<float> q(s.q_size()), k(s.k_size()), v(s.v_size());
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i] = std::sin(0.37f * i);
    k[i] = std::cos(0.91f * i);
    v[i] = std::sin(1.3f * i + 0.5f);
  }
  q[3 * 8 + 2] = NAN;
  std::fill(q.begin() + 5 * 8, q.begin() + 6 * 8, 1e20f);
  std::fill(k.begin() + 7 * 8, k.begin() + 8 * 8, 1e20f);
  const attn::Inputs in{s, q.data(), k.data(), v.data()};
  const attn::Options opt;
  std::vector<float> tiled(s.out_size());
  attn::tiled_forward(in, opt, tiled.data());
  const std::vector<float> ref = attn::reference_forward(in, opt).gather(&attn::HeadTrace::output);
  for (int i = 0; i < s.nq; ++i)
    for (int c = 0; c < s.dv; ++c) {
      const float got = tiled[i * s.dv + c], want = ref[i * s.dv + c];
      SCOPED_TRACE("row " + std::to_string(i) + " column " + std::to_string(c));
      EXPECT_EQ(std::isnan(got), i == 3 || i == 5);
      EXPECT_EQ(std::isnan(want), i == 3 || i == 5);
      if (!std::isnan(want)) EXPECT_NEAR(got, want, 1e-4f);
    }
}

// The builds for each instruction set (tests/CMakeLists.txt) say which path of simd.h they
// meant to compile; a flag that did not take would test the wrong one.
TEST(Tiled, BuiltForTheIntendedInstructionSet) {
  if (std::string(ATTN_EXPECT_SIMD).empty()) GTEST_SKIP() << "not an instruction-set build";
  EXPECT_STREQ(attn::simd::kName, ATTN_EXPECT_SIMD);
}

#if defined(__EMSCRIPTEN__)
// Where the runtime runs relaxed SIMD (Node with --experimental-wasm-relaxed-simd: the CTest
// test unit_wasm_relaxed, which sets ATTN_EXPECT_RELAXED=1), every tiled test above ran in
// attention-relaxed.wasm; elsewhere in this module's SIMD128 kernel.
TEST(Tiled, RelaxedModuleLoadedWhereRelaxedSimdRuns) {
  const bool supported = EM_ASM_INT({ return Module['relaxedSimdSupported'] ? 1 : 0; });
  const bool expected = EM_ASM_INT({ return process.env['ATTN_EXPECT_RELAXED'] === '1' ? 1 : 0; });
  if (expected) EXPECT_TRUE(supported) << "this Node does not run relaxed SIMD";
  EXPECT_EQ(attn::relaxed::available(), supported) << "attention-relaxed.wasm beside the tests: loaded?";
  if (attn::relaxed::available())
    EXPECT_STREQ(attn::tiled_instruction_set(), "wasm-relaxed-simd")
        << "attention-relaxed.wasm was compiled without relaxed SIMD's multiply-add";
}
#endif
