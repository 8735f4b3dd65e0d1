// A plot's ticks and marker labels (src/ui/plot_layout.h): positions worked out by hand for the
// figures' own cases, and the rules checked on every label placed: inside the plot's width, off
// the y label, off each other and off every marker line that rises past them.
#include <gtest/gtest.h>

#include <vector>

#include "plot_layout.h"

namespace {

using ui::MarkerLabelInput;
using ui::MarkerLabelPlace;

constexpr float kGap = 8, kBeside = 3;

// The rules of plot_layout.h, checked pair by pair.
void expect_clear(const std::vector<MarkerLabelInput>& in, const std::vector<MarkerLabelPlace>& out, float left,
                  float right, float row0_taken) {
  ASSERT_EQ(in.size(), out.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float a = out[i].left, b = a + in[i].width;
    EXPECT_GE(a, left) << i;
    EXPECT_LE(b, right) << i;
    if (out[i].row == 0) EXPECT_GE(a, row0_taken + kGap) << i;
    EXPECT_TRUE(in[i].x <= a || in[i].x >= b) << "label " << i << " over its own line";
    for (std::size_t j = 0; j < in.size(); ++j) {
      if (j == i) continue;
      const float c = out[j].left, d = c + in[j].width;
      if (out[j].row == out[i].row) EXPECT_TRUE(b + kGap <= c || d + kGap <= a) << i << " overlaps " << j;
      // j's line runs from under j's label down to the plot: it must miss every label below.
      if (out[j].row < out[i].row) EXPECT_TRUE(in[j].x < a - kGap || in[j].x > b + kGap) << j << "'s line crosses " << i;
    }
  }
}

}  // namespace

TEST(PlotLayout, TheStabilityLimitsTakeTwoRowsBesideTheYLabel) {
  // The laptop's stability plot: x from 470 to 760 px, "largest e^(…)" ending at 523; ln 65504
  // at 503 (134 px of label) and ln FLT_MAX at 725 (160 px). The first has no room on the y
  // label's line (right: 506 < 531; left: off the plot) and goes under it; the second fits on
  // that line left of its marker (725 − 3 − 160 = 562), clear of the first's label [506, 640].
  const std::vector<MarkerLabelInput> in{{503, 134}, {725, 160}};
  const std::vector<MarkerLabelPlace> out = ui::place_marker_labels(in, 470, 760, 523, kGap, kBeside);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FLOAT_EQ(out[0].left, 506);
  EXPECT_EQ(out[0].row, 1);
  EXPECT_FLOAT_EQ(out[1].left, 562);
  EXPECT_EQ(out[1].row, 0);
  EXPECT_EQ(ui::marker_label_rows(out), 2);
  expect_clear(in, out, 470, 760, 523);
}

TEST(PlotLayout, CloseMarkersStackWithoutALineThroughALabel) {
  // Three limits 40 px apart, each label 150 px: one a row, each right of its line, and no
  // lower label reaches back over a line from above (each starts 3 px right of its own).
  const std::vector<MarkerLabelInput> in{{100, 150}, {140, 150}, {180, 150}};
  const std::vector<MarkerLabelPlace> out = ui::place_marker_labels(in, 50, 600, 60, kGap, kBeside);
  EXPECT_EQ(out[0].row, 0);
  EXPECT_EQ(out[1].row, 1);
  EXPECT_EQ(out[2].row, 2);
  expect_clear(in, out, 50, 600, 60);
}

TEST(PlotLayout, ALabelNearTheRightEdgeGoesLeftOfItsLine) {
  // The cost figure's "reference does not fit" (140 px) at x = 700 of a plot ending at 760.
  const std::vector<MarkerLabelInput> in{{700, 140}};
  const std::vector<MarkerLabelPlace> out = ui::place_marker_labels(in, 470, 760, 510, kGap, kBeside);
  EXPECT_FLOAT_EQ(out[0].left, 557);
  EXPECT_EQ(out[0].row, 0);
  expect_clear(in, out, 470, 760, 510);
}

TEST(PlotLayout, ManyMarkersAcrossAWidePlotKeepEveryRule) {
  std::vector<MarkerLabelInput> in;
  for (int i = 0; i < 12; ++i) in.push_back({120.0f + 61.0f * float(i), 40.0f + 13.0f * float(i % 5)});
  const std::vector<MarkerLabelPlace> out = ui::place_marker_labels(in, 100, 900, 180, kGap, kBeside);
  expect_clear(in, out, 100, 900, 180);
}

TEST(PlotLayout, IntegerAxesTickOnlyWholeNumbers) {
  // Four tiles (0 … 3) with half a bar of room at each end: room for 8 labels would step by
  // 0.5 on a plain axis; counted tiles step by 1.
  const std::vector<double> plain = ui::axis_ticks(-0.5, 3.5, false, false, false, 8);
  EXPECT_EQ(plain, (std::vector<double>{-0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5}));
  EXPECT_EQ(ui::axis_ticks(-0.5, 3.5, false, false, true, 8), (std::vector<double>{0, 1, 2, 3}));
  // Wider ranges keep their 1-2-5 steps.
  EXPECT_EQ(ui::axis_ticks(0, 100, false, false, true, 5), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(ui::axis_ticks(64, 4096, true, true, false, 4), (std::vector<double>{64, 256, 1024, 4096}));
}

TEST(PlotLayout, ALinearAxisNeverShowsASingleTick) {
  // The raw histogram of q·k (±4√512 and half a bin, labels about 70 px in 290 px): room for
  // two labels rounded the step up to 100 and left only 0. The next step down reads the spread.
  EXPECT_EQ(ui::axis_ticks(-92.3, 92.3, false, false, false, 2), (std::vector<double>{-50, 0, 50}));
  EXPECT_EQ(ui::axis_ticks(-9.2, 9.2, false, false, false, 1), (std::vector<double>{-5, 0, 5}));
  EXPECT_EQ(ui::axis_ticks(0.3, 1.7, false, false, false, 1), (std::vector<double>{0.5, 1, 1.5}));
  // Counts never step below 1: a single count keeps its one tick.
  EXPECT_EQ(ui::axis_ticks(-0.5, 0.5, false, false, true, 2), (std::vector<double>{0}));
}
