// The scores' formulas (src/lm/head_scores.h) on attention maps written out by hand, where the
// right answer is known without the code: the off-by-one mistakes these formulas invite
// (scoring the same character instead of the one after it) give a different number here.
#include "head_scores.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace lm {
namespace {

Matrix map_from(std::initializer_list<std::initializer_list<float>> rows) {
  Matrix a = Matrix::Zero(Eigen::Index(rows.size()), Eigen::Index(rows.size()));
  int i = 0;
  for (const auto& row : rows) {
    int j = 0;
    for (float w : row) a(i, j++) = w;
    ++i;
  }
  return a;
}

TEST(HeadScores, PreviousTokenIsTheMeanWeightOnTheCharacterBefore) {
  const Matrix a = map_from({{1}, {0.25f, 0.75f}, {0.1f, 0.6f, 0.3f}, {0, 0, 1, 0}});
  EXPECT_NEAR(previous_token_score(a), (0.25 + 0.6 + 1.0) / 3, 1e-7);  // a[1][0], a[2][1], a[3][2]
}

TEST(HeadScores, PreviousTokenIsOneForAPerfectHeadAndZeroForOneThatLooksAtItself) {
  const Matrix previous = map_from({{1}, {1, 0}, {0, 1, 0}, {0, 0, 1, 0}, {0, 0, 0, 1, 0}});
  EXPECT_DOUBLE_EQ(previous_token_score(previous), 1.0);
  EXPECT_DOUBLE_EQ(previous_token_score(Matrix::Identity(5, 5)), 0.0);
}

// "ab ab": period 3. From the second copy's a (position 3) an induction head looks at the b
// after the first a (position 1); from the second b (position 4), at the space (position 2).
TEST(HeadScores, InductionLooksAtTheCharacterAfterTheEarlierOccurrence) {
  const Matrix induction = map_from({{1}, {1, 0}, {1, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0, 0}});
  EXPECT_DOUBLE_EQ(induction_score(induction, 3), 1.0);
  // A head that looks at the same character in the first copy (i − L, one too far back)
  // is a duplicate-token head: its induction score is 0.
  const Matrix duplicate = map_from({{1}, {1, 0}, {1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0, 0}});
  EXPECT_DOUBLE_EQ(induction_score(duplicate, 3), 0.0);
  // Half its weight on the right key at position 3, all of it at position 4.
  const Matrix half = map_from({{1}, {1, 0}, {1, 0, 0}, {0, 0.5f, 0, 0.5f}, {0, 0, 1, 0, 0}});
  EXPECT_DOUBLE_EQ(induction_score(half, 3), 0.75);
}

TEST(HeadScores, AUniformHeadScoresOneOverWhatItSees) {
  const int n = 9;
  const Matrix u = uniform_map(n);
  double previous = 0;
  for (int i = 1; i < n; ++i) previous += 1.0 / (i + 1);
  EXPECT_NEAR(previous_token_score(u), previous / (n - 1), 1e-7);
  double induction = 0;  // period 4: queries 4…8 see 5…9 keys
  for (int i = 4; i < n; ++i) induction += 1.0 / (i + 1);
  EXPECT_NEAR(induction_score(u, 4), induction / (n - 4), 1e-7);
}

// "abc abc": period 4, 7 characters, loss[i] predicts character i + 1. The copies' scored
// characters are b, c and the space (targets 1–3) and the second copy's b, c (targets 5–6):
// the same characters are b and c, targets 1–2 against 5–6.
TEST(HeadScores, CopyLossComparesTheSameCharactersInEachCopy) {
  const std::vector<double> loss{1, 2, 3, 4, 5, 6};
  const CopyLoss c = copy_loss(loss, 4);
  EXPECT_DOUBLE_EQ(c.first, (1 + 2) / 2.0);
  EXPECT_DOUBLE_EQ(c.second, (5 + 6) / 2.0);
}

TEST(HeadScores, BadPeriodsAreRefused) {
  EXPECT_THROW(induction_score(uniform_map(4), 4), std::invalid_argument);
  EXPECT_THROW(induction_score(uniform_map(4), 0), std::invalid_argument);
  EXPECT_THROW(copy_loss({1, 2, 3}, 3), std::invalid_argument);
  EXPECT_THROW(previous_token_score(uniform_map(1)), std::invalid_argument);
}

TEST(HeadScores, LabelsOnlyWhereTheScoreSaysSo) {
  EXPECT_EQ(head_label(0.39, 0.29), "");
  EXPECT_EQ(head_label(kPreviousToken, 0.0), "previous-token");
  EXPECT_EQ(head_label(0.0, kInduction), "induction");
  EXPECT_EQ(head_label(0.5, 0.5), "previous-token, induction");
}

}  // namespace
}  // namespace lm
