// Line and bar charts drawn with ImGui's draw lists (ImPlot is not available): axes with
// ticks and labels, linear or logarithmic, series with a legend under the plot, vertical
// markers, and a hover readout of every series at the nearest x. Every experiment plot uses it.
#pragma once

#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

namespace ui {

struct PlotSeries {
  std::string label;                // in the legend and the hover readout
  std::vector<double> x, y;         // NaN and ±∞ (and ≤ 0 on a log axis) leave gaps
  enum class Style { line, bars, dashed } style = Style::line;  // how the points are drawn
  int colour = 0;                   // index into plot_colour()
  bool points = false;              // a dot at every finite point
};

struct PlotMarker {  // a vertical line at x, labelled above the plot area (never over a curve)
  double x = 0;
  std::string label;
  int colour = 0;
};

struct PlotSpec {
  std::string x_label, y_label;
  bool log_x = false, log_y = false;  // base 10 ticks (base 2 for x when log2_x)
  bool log2_x = false;
  bool integer_x = false;  // x counts something (tiles): no ticks between whole numbers
  bool legend = true;      // false: the card's title or note names the one series
  // The axis ranges; NaN: from the finite data (y from 0 unless log_y or the data goes below).
  double x_min = NAN, x_max = NAN, y_min = NAN, y_max = NAN;
  float height = 0;  // the whole widget's height in unscaled pixels (legend included); 0: the rest of the window
};

// Colours that read on both themes: blue, orange, green, purple, red, teal, brown, grey.
ImU32 plot_colour(int index);

void plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
          const std::vector<PlotMarker>& markers = {});

// The widget's height, `width` wide, when its plot area (inside the axes) is `area` tall: what
// a card needs under its title for a plot that stays readable in a narrow column.
float plot_height(const PlotSpec& spec, const std::vector<PlotSeries>& series, const std::vector<PlotMarker>& markers,
                  float width, float area);

// A std::vector of any numbers as doubles (the experiments keep floats and ints).
template <class Container>
std::vector<double> doubles(const Container& values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace ui
