// Where a plot's ticks and marker labels go, as plain arithmetic (no ImGui), so the rules are
// tested on their own (tests/unit/plot_layout_test.cpp); plot.cpp measures text and draws.
#pragma once

#include <vector>

namespace ui {

// Tick values on an axis from lo to hi: powers of 10 (or of 2 when base2) on a log axis, 1-2-5
// steps on a linear one, at most `most` of them (at least 2). `integer`: the values are counts
// (tiles, steps), so a linear axis never steps by less than 1.
std::vector<double> axis_ticks(double lo, double hi, bool log, bool base2, bool integer, int most);

// Marker labels sit in rows of a strip above the plot area, never inside it, so no curve
// strikes one through. Row 0 is the y axis's label line, whose text takes [left, row0_taken).
// Each label goes beside its marker's line (right of it, else left of it), within [left,
// right], in the first row where it overlaps no other label by less than `gap`, covers no line
// of a marker labelled in a row above (the line rises through the rows under its label) and
// sits over no line whose label is in a row below.
struct MarkerLabelInput {
  float x = 0;      // the marker line's pixel
  float width = 0;  // its label's width
};
struct MarkerLabelPlace {
  float left = 0;  // the label's left edge
  int row = 0;
};
std::vector<MarkerLabelPlace> place_marker_labels(const std::vector<MarkerLabelInput>& labels, float left, float right,
                                                  float row0_taken, float gap, float beside);
// The rows the placed labels take, row 0 (the y label's line) included: at least 1.
int marker_label_rows(const std::vector<MarkerLabelPlace>& places);

}  // namespace ui
