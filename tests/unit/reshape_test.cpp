// Typed values survive a new shape or seed (lab::Lab::set_state): the cells inside both shapes
// keep their values, the new ones are what a fresh state with that seed draws there, and a
// matrix grown and shrunk back is the one typed.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "lab.h"

namespace {

// Values no seed draws (the seed's are multiples of 0.1 in [-1.5, 1.5]), one per cell.
std::vector<float> typed(std::size_t count, float start) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = start + 0.25f * float(i) + 0.03f;
  return v;
}

lab::State typed_cross() {
  lab::State s;
  s.kind = lab::Attention::cross;
  s.nq = 3, s.nk = 4, s.dk = 2, s.dv = 3, s.seed = 7;
  s.q = typed(6, 20), s.k = typed(8, 40), s.v = typed(12, 60);
  return s;
}

// The value at (sequence b, row r, column c) of a flat (batch, rows, cols) matrix.
float at(const std::vector<float>& m, int rows, int cols, int b, int r, int c) {
  return m[(std::size_t(b) * rows + r) * cols + c];
}

// Every cell of `now` (batch × rows × cols): the typed value where the old shape had one,
// otherwise what a fresh state of the new shape draws.
void expect_kept_or_seeded(const std::vector<float>& now, const std::vector<float>& old, const std::vector<float>& fresh,
                           int batch, int rows, int cols, int old_batch, int old_rows, int old_cols) {
  ASSERT_EQ(now.size(), std::size_t(batch) * rows * cols);
  for (int b = 0; b < batch; ++b)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const bool kept = b < old_batch && r < old_rows && c < old_cols;
        EXPECT_EQ(at(now, rows, cols, b, r, c),
                  kept ? at(old, old_rows, old_cols, b, r, c) : at(fresh, rows, cols, b, r, c))
            << "cell (" << b << ", " << r << ", " << c << ")";
      }
}

// What a state with this shape and seed and nothing typed computes with.
lab::Lab fresh(lab::State s) {
  s.q.clear(), s.k.clear(), s.v.clear(), s.x.clear(), s.wq.clear(), s.wk.clear(), s.wv.clear();
  return lab::Lab(s);
}

TEST(Reshape, MoreQueriesKeepTheTypedRowsAndDrawTheNewOnes) {
  const lab::State before = typed_cross();
  lab::Lab lab(before);
  lab::State next = lab.state();
  next.nq = 5;
  lab.set_state(next);
  const lab::Lab seeded = fresh(lab.state());
  expect_kept_or_seeded(lab.state().q, before.q, seeded.flat_q(), 1, 5, 2, 1, 3, 2);
  EXPECT_EQ(lab.state().k, before.k);
  EXPECT_EQ(lab.state().v, before.v);
}

TEST(Reshape, EveryDimensionGrownAndShrunkBackIsTheTypedMatrix) {
  const lab::State before = typed_cross();
  lab::Lab lab(before);
  lab::State next = lab.state();
  next.nq = 6, next.nk = 2, next.dk = 4, next.dv = 1;
  lab.set_state(next);
  const lab::Lab seeded = fresh(lab.state());
  expect_kept_or_seeded(lab.state().q, before.q, seeded.flat_q(), 1, 6, 4, 1, 3, 2);
  expect_kept_or_seeded(lab.state().k, before.k, seeded.flat_k(), 1, 2, 4, 1, 4, 2);
  expect_kept_or_seeded(lab.state().v, before.v, seeded.flat_v(), 1, 2, 1, 1, 4, 3);
  next = lab.state();
  next.nq = 3, next.dk = 2;  // q back to its shape; k, v shrank meanwhile and lost their rows
  lab.set_state(next);
  EXPECT_EQ(lab.state().q, before.q);
}

TEST(Reshape, ABatchKeepsItsSequencesAndDrawsTheNewOnes) {
  const lab::State before = typed_cross();
  lab::Lab lab(before);
  lab::State next = lab.state();
  next.pad = {4, 2};  // a second sequence
  lab.set_state(next);
  const lab::Lab seeded = fresh(lab.state());
  expect_kept_or_seeded(lab.state().q, before.q, seeded.flat_q(), 2, 3, 2, 1, 3, 2);
  expect_kept_or_seeded(lab.state().v, before.v, seeded.flat_v(), 2, 4, 3, 1, 4, 3);
  // The kernel sees the typed first sequence.
  EXPECT_FLOAT_EQ(lab.q()(2, 1), before.q[5]);
}

TEST(Reshape, ANewSeedKeepsTypedMatricesAndRedrawsTheOthers) {
  lab::State before = typed_cross();
  before.k.clear();
  lab::Lab lab(before);
  lab::State next = lab.state();
  next.seed = 8;
  lab.set_state(next);
  EXPECT_EQ(lab.state().q, before.q);
  EXPECT_EQ(lab.state().v, before.v);
  EXPECT_EQ(lab.flat_k(), fresh(lab.state()).flat_k());
  EXPECT_NE(lab.flat_k(), fresh(before).flat_k());
}

TEST(Reshape, ProjectionsFollowDModelAndDk) {
  lab::State before;
  before.seed = 3, before.nq = 3, before.dk = 2, before.dmodel = 4;
  before.x = typed(12, -10), before.wq = typed(8, 1), before.wv = typed(8, 5);
  lab::Lab lab(before);
  ASSERT_TRUE(lab.state().projected());
  lab::State next = lab.state();
  next.dmodel = 6, next.dk = 3, next.nq = 2;
  lab.set_state(next);
  const lab::Lab seeded = fresh(lab.state());
  expect_kept_or_seeded(lab.state().x, before.x, seeded.flat_x(), 1, 2, 6, 1, 3, 4);
  expect_kept_or_seeded(lab.state().wq, before.wq, seeded.flat_wq(), 1, 6, 3, 1, 4, 2);
  expect_kept_or_seeded(lab.state().wv, before.wv, seeded.flat_wv(), 1, 6, 3, 1, 4, 2);  // self: d_v = d_k
  EXPECT_TRUE(lab.state().wk.empty());  // never typed: still the seed's
  // Q = X W_Q from the kept and drawn values.
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 3; ++c) {
      double want = 0;
      for (int m = 0; m < 6; ++m) want += double(lab.state().x[i * 6 + m]) * lab.state().wq[m * 3 + c];
      EXPECT_NEAR(lab.q()(i, c), want, 1e-4);
    }
}

TEST(Reshape, MatricesGivenWithTheNewShapeAreUsedAsGiven) {
  lab::Lab lab(typed_cross());
  lab::State next = lab.state();
  next.nq = 4;
  next.q = typed(8, -30);
  lab.set_state(next);
  EXPECT_EQ(lab.state().q, typed(8, -30));
}

}  // namespace

namespace {

// The page API's changes are live (typed values kept); a link means the same whatever was on
// screen before it (the seed draws a matrix whose typed values do not fit).
TEST(Reshape, LiveChangesKeepTypedValuesLinksDoNot) {
  const lab::State before = typed_cross();
  lab::State base = before;
  lab::normalize(base);
  const lab::State live = lab::parse_fragment("nq=4", base, true).state;
  const lab::State link = lab::parse_fragment("nq=4", base).state;
  ASSERT_EQ(live.q.size(), 8u);
  EXPECT_TRUE(std::equal(before.q.begin(), before.q.end(), live.q.begin()));
  EXPECT_TRUE(link.q.empty());
  EXPECT_EQ(live.k, before.k);
  EXPECT_EQ(link.k, before.k);  // its shape did not change
}

}  // namespace
