// The heatmap's layout (src/ui/heatmap_layout.h) with a monospaced stand-in font (8 pixels a
// character, lines of 16): cell sizes and strides worked out by hand, and the widget's parts
// checked to fit their room without overlapping.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

TEST(HeatmapLayout, ANarrowCardsColourBarShrinksSoThatItsEndsFit) {
  const ui::TextMetrics text = mono();
  ui::HeatmapLayoutInput in = matrix(3, 3, {130, 400});
  in.lo = "-6.4", in.hi = "6.4";
  // 24 px of labels leave 106: "-6.4" (32) and "6.4" (24) with two 6 px gaps leave 38 for the bar.
  const ui::HeatmapLayout l = ui::heatmap_layout(in, text);
  EXPECT_FLOAT_EQ(l.bar_w, 38);
  EXPECT_LE(l.label_w + l.legend_w, in.room.w);
  EXPECT_FALSE(l.legend_stacked);
  // Never below a stub: where "lo [stub] hi" does not fit (32 + 24 + 24 + 12 > 66), the bar
  // takes the line and the ends go under it, both inside the card.
  in.room.w = 90;
  const ui::HeatmapLayout narrow = ui::heatmap_layout(in, text);
  EXPECT_TRUE(narrow.legend_stacked);
  EXPECT_GE(narrow.text_y, narrow.bar_y + narrow.bar_h);             // the ends under the bar
  EXPECT_GE(narrow.hi_x, narrow.lo_x + text.width(in.lo) + narrow.gap);  // "hi" clear of "lo"
  EXPECT_GE(narrow.label_w + narrow.lo_x, 0);                          // both within the card
  EXPECT_LE(narrow.label_w + narrow.hi_x + text.width(in.hi), in.room.w);
  EXPECT_LE(narrow.label_w + narrow.legend_w, in.room.w);
  EXPECT_LE(narrow.size.h, in.room.h);
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

namespace {

// The column labels `axis_labels` shows for `n` columns named k0, k1, … of `cell` pixels, in a
// room reaching `past` pixels beyond the plot on either side, with a 6 px gap.
std::vector<ui::AxisLabel> key_labels(int n, float cell, float past, int keep = -1) {
  const ui::TextMetrics text = mono();
  ui::AxisSpan span;
  span.end = n;
  span.cell = cell;
  span.lo = -past;
  span.hi = n * cell + past;
  span.gap = 6;
  span.keep = keep;
  const auto width = [&](int c) { return text.width("k" + std::to_string(c)); };
  const auto label = [](int c) { return "k" + std::to_string(c); };
  return ui::axis_labels(span, width, ui::widest_label(label, 0, n - 1, text));
}

// What any axis's labels must be: in order, inside the room, never touching, and the last kept.
void expect_readable(const std::vector<ui::AxisLabel>& shown, int n, float cell, float past) {
  ASSERT_FALSE(shown.empty());
  EXPECT_EQ(shown.back().index, n - 1);  // the last label is never dropped
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const float w = 8.0f * float(("k" + std::to_string(shown[i].index)).size());
    EXPECT_GE(shown[i].at, -past);
    EXPECT_LE(shown[i].at + w, n * cell + past);  // whole, never cut at the room's edge
    if (i == 0) continue;
    const float prev_w = 8.0f * float(("k" + std::to_string(shown[i - 1].index)).size());
    EXPECT_LT(shown[i - 1].index, shown[i].index);
    EXPECT_GE(shown[i].at, shown[i - 1].at + prev_w + 6);  // a gap between neighbours
  }
}

}  // namespace

TEST(HeatmapLayout, EveryLabelShowsWhenEachFitsItsCell) {
  // "k0" … "k9": 16 px and a 6 px gap in 24 px cells.
  const auto shown = key_labels(10, 24, 0);
  ASSERT_EQ(shown.size(), 10u);
  for (int c = 0; c < 10; ++c) {
    EXPECT_EQ(shown[c].index, c);
    EXPECT_FLOAT_EQ(shown[c].at, c * 24 + 4);  // centred: (24 - 16) / 2
  }
}

TEST(HeatmapLayout, AStrideKeepsTheLastLabelWhole) {
  // 16 keys in 20 px cells: "k15" is 24 px, with its gap 30: every 2nd, and k15 itself.
  const auto shown = key_labels(16, 20, 0);
  expect_readable(shown, 16, 20, 0);
  std::vector<int> indices;
  for (const auto& l : shown) indices.push_back(l.index);
  EXPECT_EQ(indices, (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 15}));  // k14 makes way for k15
  // k15 centred on its cell would end 2 px past the plot: moved in, not cut to "k1".
  EXPECT_FLOAT_EQ(shown.back().at, 16 * 20 - 24);
  // 64 keys in 6 px cells: every 5th (30 px a label), the last one too.
  expect_readable(key_labels(64, 6, 0), 64, 6, 0);
  expect_readable(key_labels(64, 6, 40), 64, 6, 40);
  EXPECT_EQ(key_labels(64, 6, 0).back().index, 63);
}

TEST(HeatmapLayout, TheSelectedLabelShowsWhateverTheStride) {
  // Row 7 of 16 selected: shown, its neighbours in the stride make way.
  const auto shown = key_labels(16, 20, 0, 7);
  expect_readable(shown, 16, 20, 0);
  EXPECT_TRUE(std::any_of(shown.begin(), shown.end(), [](const ui::AxisLabel& l) { return l.index == 7; }));
  // Labels wider than the whole room would be: only the kept ones that fit (none touch).
  const auto crowded = key_labels(3, 4, 0, 0);
  ASSERT_EQ(crowded.size(), 1u);  // k0 wins its room; k2 would overlap it
  EXPECT_EQ(crowded[0].index, 0);
}

TEST(HeatmapLayout, ZoomedLabelsFollowTheCellsInView) {
  // Cells 40 to 49 in view, the view starting 10 px into cell 40: each label on its cell.
  const ui::TextMetrics text = mono();
  ui::AxisSpan span;
  span.first = 40;
  span.end = 50;
  span.start = -10;
  span.cell = 40;
  span.hi = 400;
  span.gap = 6;
  const auto width = [&](int c) { return text.width("k" + std::to_string(c)); };
  const auto shown = ui::axis_labels(span, width, 24);
  ASSERT_EQ(shown.size(), 10u);
  EXPECT_EQ(shown.front().index, 40);
  EXPECT_FLOAT_EQ(shown.front().at, 0);  // centred at 10 would start at -2: moved into the room
  EXPECT_FLOAT_EQ(shown[1].at, -10 + 40 + 8);
}

TEST(HeatmapLayout, WordsOfUnequalWidthShowEveryOneThatHasRoom) {
  // Issue 30: six words in 32 px cells showed "I", "a", "fox". The widest ("quick", "brown":
  // 40 px and the gap) sets a stride of 2; the shorter ones fit between: all but "brown",
  // which would touch "quick" and "fox".
  const std::vector<std::string> words{"I", "saw", "a", "quick", "brown", "fox"};
  const ui::TextMetrics text = mono();
  ui::AxisSpan span;
  span.end = 6;
  span.cell = 32;
  span.hi = 6 * 32;
  span.gap = 6;
  const auto width = [&](int c) { return text.width(words[c]); };
  const auto shown = ui::axis_labels(span, width, ui::widest_label([&](int c) { return words[c]; }, 0, 5, text));
  std::vector<int> indices;
  for (const auto& l : shown) indices.push_back(l.index);
  EXPECT_EQ(indices, (std::vector<int>{0, 1, 2, 3, 5}));
  for (std::size_t i = 1; i < shown.size(); ++i)
    EXPECT_GE(shown[i].at, shown[i - 1].at + width(shown[i - 1].index) + 6);  // none touch
}
