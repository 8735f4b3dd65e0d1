// lab::Lab, the model between the interface's state and its views: the state in, the trace
// out (checked against the tests' float64 attention), and the kernel run again only when a
// value it depends on changes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "float64_attention.h"
#include "lab.h"

namespace {

// Cross-attention with typed matrices: every number the kernel sees comes from the state.
lab::State typed_cross(int batch) {
  lab::State s;
  s.kind = lab::Attention::cross;
  s.nq = 3, s.nk = 4, s.dk = 2, s.dv = 3;
  if (batch > 1) s.pad.assign(std::size_t(batch), s.nk);
  s.q = lab::seeded_values(11, 1, std::size_t(batch) * s.nq * s.dk);
  s.k = lab::seeded_values(11, 2, std::size_t(batch) * s.nk * s.dk);
  s.v = lab::seeded_values(11, 3, std::size_t(batch) * s.nk * s.dv);
  return s;
}

// The shown sequence's weights and output against float64 from the state's own matrices,
// with `blocked(i, j)` removing keys as the state's masks should.
template <class Blocked>
void expect_shown_sequence_matches_float64(const lab::Lab& lab, double scale, Blocked blocked) {
  const lab::State& s = lab.state();
  testing_ref::Problem64 p;
  p.nq = s.nq, p.nk = s.nk, p.dk = s.dk, p.dv = s.dv, p.scale = scale;
  const std::size_t b = std::size_t(s.batch);
  p.q.assign(s.q.begin() + b * s.nq * s.dk, s.q.begin() + (b + 1) * s.nq * s.dk);
  p.k.assign(s.k.begin() + b * s.nk * s.dk, s.k.begin() + (b + 1) * s.nk * s.dk);
  p.v.assign(s.v.begin() + b * s.nk * s.dv, s.v.begin() + (b + 1) * s.nk * s.dv);
  p.mask.assign(std::size_t(s.nq) * s.nk, 0.0);
  for (int i = 0; i < s.nq; ++i)
    for (int j = 0; j < s.nk; ++j)
      if (blocked(i, j)) p.mask[std::size_t(i) * s.nk + j] = -HUGE_VAL;
  const testing_ref::Result64 want = testing_ref::attention64(p);
  const attn::HeadTrace& head = lab.head();
  for (int i = 0; i < s.nq; ++i) {
    for (int j = 0; j < s.nk; ++j) EXPECT_NEAR(head.weights(i, j), want.weights[std::size_t(i) * s.nk + j], 1e-6) << i << "," << j;
    for (int d = 0; d < s.dv; ++d) EXPECT_NEAR(head.output(i, d), want.output[std::size_t(i) * s.dv + d], 1e-5) << i << "," << d;
  }
}

TEST(Lab, TypedMatricesInTraceOut) {
  const lab::Lab lab(typed_cross(1));
  expect_shown_sequence_matches_float64(lab, 1.0 / std::sqrt(2.0), [](int, int) { return false; });
}

TEST(Lab, ScaleCausalAndBlockedCellsReachTheKernel) {
  lab::State s = typed_cross(1);
  s.scale = attn::ScaleMode::custom;
  s.custom_scale = 0.75f;
  s.causal = attn::Causal::bottom_right;  // query i sees keys j <= i + 1
  s.blocked = {{2, 0}};
  const lab::Lab lab(s);
  expect_shown_sequence_matches_float64(lab, 0.75, [](int i, int j) { return j > i + 1 || (i == 2 && j == 0); });
}

TEST(Lab, EachSequenceOfAPaddedBatchHasItsOwnKeys) {
  lab::State s = typed_cross(2);
  s.pad = {4, 2};
  s.batch = 1;
  const lab::Lab lab(s);
  expect_shown_sequence_matches_float64(lab, 1.0 / std::sqrt(2.0), [](int, int j) { return j >= 2; });
}

TEST(Lab, RecomputesOnlyWhenTheKernelsInputsChange) {
  lab::Lab lab(typed_cross(1));
  ASSERT_TRUE(lab.take_changed());
  EXPECT_FALSE(lab.take_changed());
  const std::uint64_t computed = lab.version();

  lab::State s = lab.state();
  s.step = lab::Step::softmax;
  s.query = 2;
  s.theme = lab::Theme::dark;
  lab.set_state(s);
  EXPECT_TRUE(lab.take_changed());
  EXPECT_EQ(lab.version(), computed) << "stepping, selecting a query or a theme ran the kernel";

  lab.set_state(s);  // the same state again: no change at all
  EXPECT_FALSE(lab.take_changed());

  s.scale = attn::ScaleMode::none;
  lab.set_state(s);
  EXPECT_NE(lab.version(), computed);
  expect_shown_sequence_matches_float64(lab, 1.0, [](int, int) { return false; });
}

// The keys that run the kernel again are those that change a number it computes with, and the
// two that change what is made from it (this list is the test's own; Lab follows the
// "computes" column of keys.cpp's table of keys).
TEST(Lab, OnlyKeysThatChangeTheNumbersRunTheKernel) {
  const lab::State start;  // self-attention with projections, every matrix drawn from the seed
  const auto version_after = [&](const char* link) {
    lab::Lab lab(start);
    const std::uint64_t before = lab.version();
    const auto r = lab::parse_fragment(link, start);
    EXPECT_TRUE(r.notes.empty()) << link;
    lab.set_state(r.state);
    EXPECT_TRUE(lab.take_changed()) << link;
    return std::pair{before, lab.version()};
  };
  for (const char* link : {"step=mask", "query=1", "view=compare", "theme=dark", "ui=compact", "mult=2", "row=1",
                           "pitfall=fill_zero", "tile=2", "heads=8", "kvheads=1", "run=1", "task=sort", "layers=2",
                           "play=1", "spf=9", "vs=scale:none"}) {
    const auto [before, after] = version_after(link);
    EXPECT_EQ(after, before) << link << " ran the kernel";
  }
  // The language and the mode too: the screen reader's table and practice's question are made
  // again with a new computation (src/ui/accessibility.cpp keys its table on Lab::version()).
  for (const char* link : {"n=4", "dk=3", "dmodel=3", "seed=5", "scale=none", "causal=1", "attn=cross", "proj=0",
                           "pad=2", "block=0:1", "x=1,2,3,4,5,6,7,8,9,10,11,12", "lang=es", "mode=practice"}) {
    const auto [before, after] = version_after(link);
    EXPECT_NE(after, before) << link << " did not run the kernel";
  }
}

TEST(Lab, ExperimentComputedOncePerChangeOfItsParameters) {
  lab::State s;
  s.view = lab::View::tiling;
  s.nq = s.nk = 12;
  s.tile = 4;
  lab::Lab lab(s);
  ASSERT_TRUE(lab.experiment().error().empty()) << lab.experiment().error();
  const std::uint64_t computed = lab.experiment().version();

  s = lab.state();
  s.theme = lab::Theme::dark;
  lab.set_state(s);
  EXPECT_EQ(lab.experiment().version(), computed);

  s.tile = 3;
  lab.set_state(s);
  EXPECT_NE(lab.experiment().version(), computed);
  EXPECT_NE(lab.experiment_json().find("\"tile\""), std::string::npos);
}

TEST(Lab, TypedMatricesOfTheWrongSizeAreDroppedNotRead) {
  lab::State s = typed_cross(1);
  s.q.resize(5);  // not nq × dk: normalize() drops it and the seed fills Q
  const lab::Lab lab(s);
  EXPECT_TRUE(lab.state().q.empty());
  EXPECT_EQ(lab.q().rows(), 3);
  EXPECT_EQ(lab.q().cols(), 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_TRUE(std::isfinite(lab.head().weights(i, j)));
}

}  // namespace
