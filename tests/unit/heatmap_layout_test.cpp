// The heatmap's layout (src/ui/heatmap_layout.h) with a monospaced stand-in font (8 pixels a
// character, lines of 16): cell sizes and strides worked out by hand, and the widget's parts
// checked to fit their room without overlapping.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "heatmap_layout.h"

namespace {

ui::TextMetrics mono() {
  ui::TextMetrics text;
  text.width = [](const std::string& s) { return 8.0f * float(s.size()); };
  text.line = 16;
  text.digit = 7;
  text.unit = 1;
  return text;
}

ui::HeatmapLayoutInput matrix(int rows, int cols, ui::Extent room, bool masked = false) {
  ui::HeatmapLayoutInput in;
  in.rows = rows;
  in.cols = cols;
  in.shown = {float(cols), float(rows)};
  in.room = room;
  in.row_label = [](int r) { return "q" + std::to_string(r); };
  in.lo = "-6.364";
  in.hi = "6.364";
  in.masked = "masked (-inf)";
  in.any_masked = masked;
  return in;
}

}  // namespace

TEST(HeatmapLayout, CellsAreSquareUpToTheCapAndStretchOnlyToAThirdOfTheRoom) {
  // 10 × 10 in 300 × 200: 20 px squares (the height limits).
  EXPECT_FLOAT_EQ(ui::cell_extent({300, 200}, {10, 10}, 56, INFINITY).w, 20);
  EXPECT_FLOAT_EQ(ui::cell_extent({300, 200}, {10, 10}, 56, INFINITY).h, 20);
  // 2 × 2 in a large room: the cap, 56, then each side stretched to a third of the room.
  const ui::Extent small = ui::cell_extent({600, 120}, {2, 2}, 56, INFINITY);
  EXPECT_FLOAT_EQ(small.w, 100);  // 600 / 3 / 2
  EXPECT_FLOAT_EQ(small.h, 56);   // 120 / 3 / 2 = 20 is below the square
  // The figure's rule: no stretch past the cap.
  EXPECT_FLOAT_EQ(ui::cell_extent({600, 120}, {2, 2}, 56, 56).w, 56);
  // One row of 100: 8 px wide (800 / 100), its height stretched to a third of 400.
  const ui::Extent strip = ui::cell_extent({800, 400}, {100, 1}, 56, INFINITY);
  EXPECT_FLOAT_EQ(strip.w, 8);
  EXPECT_NEAR(strip.h, 400.0f / 3, 1e-3);
}

TEST(HeatmapLayout, LabelsAndValuesShowWhereTheyFit) {
  EXPECT_EQ(ui::label_stride(16, 20), 1);
  EXPECT_EQ(ui::label_stride(16, 5), 4);   // 3.2 cells a label
  EXPECT_EQ(ui::label_stride(16, 16), 1);
  EXPECT_EQ(ui::label_stride(16, 0.5f), 32);
  const ui::TextMetrics text = mono();
  EXPECT_EQ(ui::value_chars({40, 15}, text), 0);  // lower than a line
  EXPECT_EQ(ui::value_chars({40, 16}, text), 5);  // (40 - 4) / 7
  EXPECT_EQ(ui::value_chars({24, 30}, text), 2);  // below kLeastValueChars: no values
  // The widest label of a sample: the first 64 from `first` and the last.
  const auto label = [](int c) { return c == 100 ? std::string(40, 'x') : c == 199 ? std::string("k199") : "k"; };
  EXPECT_FLOAT_EQ(ui::widest_label(label, 0, 199, text), 32);        // "k199"; k100 is not in the sample
  EXPECT_FLOAT_EQ(ui::widest_label(label, 90, 199, text), 8 * 40);  // from 90 on it is
}

TEST(HeatmapLayout, TheWidgetsPartsFitTheRoomWithoutOverlapping) {
  const ui::TextMetrics text = mono();
  const ui::HeatmapLayoutInput in = matrix(3, 3, {600, 400});
  const ui::HeatmapLayout l = ui::heatmap_layout(in, text);
  EXPECT_FLOAT_EQ(l.label_w, 2 * 8 + 8);  // "q2" and a gap
  EXPECT_FLOAT_EQ(l.cell.w, 64);           // (600 - 24) / 3 / 3: stretched past the 56 cap
  EXPECT_FLOAT_EQ(l.cell.h, 56);
  EXPECT_FLOAT_EQ(l.plot.w, 192);
  EXPECT_FLOAT_EQ(l.plot.h, 168);
  EXPECT_GE(l.top, text.line);                                   // column labels above the plot
  EXPECT_GE(l.legend_y, l.plot.h);                               // the legend below it
  EXPECT_GE(l.bar_x, text.width(in.lo));                         // "lo", then the bar
  EXPECT_GE(l.hi_x, l.bar_x + l.bar_w);                          // then "hi"
  EXPECT_FLOAT_EQ(l.legend_w, l.hi_x + text.width(in.hi));
  EXPECT_LE(l.label_w + l.plot.w, in.room.w);
  EXPECT_LE(l.size.h, in.room.h);
  EXPECT_GE(l.size.w, l.label_w + l.legend_w);
  EXPECT_FALSE(l.legend_wraps);
}

TEST(HeatmapLayout, TheMaskedPatternGoesBesideTheScaleOrOnALineOfItsOwn) {
  const ui::TextMetrics text = mono();
  const ui::HeatmapLayout wide = ui::heatmap_layout(matrix(3, 3, {600, 400}, true), text);
  EXPECT_FALSE(wide.legend_wraps);
  EXPECT_FLOAT_EQ(wide.masked_y, wide.legend_y);
  EXPECT_GE(wide.masked_x, wide.legend_w);  // after "hi"
  EXPECT_LE(wide.label_w + wide.masked_x + text.line + wide.gap + text.width("masked (-inf)"), 600);
  // 24 px of labels leave 176: "-6.364 [60] 6.364" and the pattern's 16 + 6 + 104 need more.
  const ui::HeatmapLayout narrow = ui::heatmap_layout(matrix(3, 3, {200, 400}, true), text);
  EXPECT_TRUE(narrow.legend_wraps);
  EXPECT_FLOAT_EQ(narrow.masked_x, 0);
  EXPECT_GE(narrow.masked_y, narrow.legend_y + text.line);
  EXPECT_GE(narrow.size.h, narrow.top + narrow.plot.h + 2 * text.line);  // room for both lines
}
