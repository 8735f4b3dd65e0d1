// Where a heatmap's parts go, as plain arithmetic (no ImGui): the size of its cells, which
// row and column labels have room, whether values fit in the cells, and on screen the whole
// widget: the label column, the plot, the colour legend and whether it takes two lines.
// The widget (heatmap_view.h) and the exported figure (figure.h) both lay out from here, so
// their cells, labels and values follow one set of rules (tests/unit/heatmap_layout_test.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ui {

struct Extent {
  float w = 0, h = 0;
};

// What the layout measures text with. `unit` is the interface's scale (font size / 16):
// every gap is so many unscaled pixels times it.
struct TextMetrics {
  std::function<float(const std::string&)> width;  // of a label in the body font
  float line = 16;   // the body font's line height
  float digit = 8;   // a digit's width in the monospaced font of the cell values
  float unit = 1;
};

// The side of a cell: square, up to `cap` and as large as `room` allows for `cells` (columns
// by rows), unless that leaves a very long or very wide matrix a sliver: then each side may
// stretch to a third of the room (but not past `stretch_cap`).
Extent cell_extent(Extent room, Extent cells, float cap, float stretch_cap);

// Every label when each fits its cell, otherwise every k-th: the k for labels of `label`
// pixels (height of a row label, width of a column label with its gap) on `cell` pixels.
int label_stride(float label, float cell);

// Which labels an axis shows and where (rows or columns alike, along the axis). Every one when
// each fits its cell; otherwise every k-th from the first in view (label_stride of the widest
// label), and always the last in view and `keep` (the selected row): a stride label that would
// touch one of those makes way; then, on an axis of at most kFilledLabels cells, any other
// label that has room (a short word between long ones). Each label is centred on its cell, moved inside [lo, hi] (the
// room it may take: a long last label is not cut at the plot's edge), and no two shown labels
// come closer than `gap`.
struct AxisSpan {
  int first = 0, end = 0;  // the cells in view: [first, end)
  float start = 0;         // where cell `first` begins, from the plot's edge (below 0 when zoomed mid-cell)
  float cell = 1;          // a cell's extent along the axis
  float lo = 0, hi = 0;    // the room for labels, from the plot's edge
  float gap = 0;
  int keep = -1;
};
struct AxisLabel {
  int index = 0;
  float at = 0;  // where the label begins along the axis, from the plot's edge
};
inline constexpr int kFilledLabels = 256;  // the fill's bound: a frame's cost stays small
// `extent(i)`: label i's length along the axis (its width for a column, the line for a row).
std::vector<AxisLabel> axis_labels(const AxisSpan& span, const std::function<float(int)>& extent, float widest);

// The widest column label of those from `first` on, measured on a bounded sample (the first
// 64 and the last one, the longest index), so a frame's cost does not grow with the columns.
float widest_label(const std::function<std::string(int)>& label, int first, int last, const TextMetrics& text);

// How many characters a cell value may have: 0 when the cell is lower than a line, and values
// are written only when every one fits (at least 3 characters: num_fit in explain.h).
int value_chars(Extent cell, const TextMetrics& text);
inline constexpr int kLeastValueChars = 3;

// The largest a cell grows, in unscaled pixels: small matrices stay compact. A card that sizes
// itself to its matrix (the stages, the heads' maps) reads the same cap.
inline constexpr float kMaxCell = 56;

// The widget on screen: the plot's top-left corner is (label_w, top) from the widget's.
struct HeatmapLayoutInput {
  int rows = 0, cols = 0;
  Extent shown;          // the part of the matrix in view, in cells (all of it unless zoomed)
  Extent room;           // the widget's width and the height its plot may take with its labels and legend
  float max_cell = kMaxCell;  // unscaled pixels
  std::function<std::string(int)> row_label;
  std::string lo, hi, masked;  // the legend's range ends and the masked pattern's name
  bool any_masked = false;
};

struct HeatmapLayout {
  float label_w = 0;   // the row labels' column, left of the plot
  float top = 0;       // the column labels' line, above the plot
  Extent cell, plot;   // one cell (unrounded, for positions) and the whole plot in pixels
  float gap = 0;       // between the legend's parts
  // The legend under the plot: "lo [bar] hi", then the masked pattern on the same line, or on
  // a second one when it does not fit. In a card too narrow for "lo [stub] hi" the bar takes
  // the line under the labels and the plot, and "lo" and "hi" go under its two ends (stacked).
  // Its x from the plot's left (the labels' column is left of 0), its y from the plot's top.
  float legend_y = 0;
  bool legend_stacked = false;
  float text_y = 0;                       // the line of "lo" and "hi"
  float lo_x = 0;
  float bar_x = 0, bar_y = 0, bar_w = 0, bar_h = 0;
  float hi_x = 0;
  float legend_w = 0;  // "lo [bar] hi", or the wider of the bar and its ends
  bool legend_wraps = false;
  float masked_x = 0, masked_y = 0;  // the pattern's square, `line` a side
  Extent size;         // the whole widget
};

HeatmapLayout heatmap_layout(const HeatmapLayoutInput& in, const TextMetrics& text);

}  // namespace ui
