// [SECTION] axes and ticks, [SECTION] layout, [SECTION] drawing, [SECTION] hover readout: plot()
// lays the widget out first (as the heatmap does: heatmap_layout.h), then draws its parts.
#include "plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "explain.h"
#include "plot_layout.h"
#include "theme.h"
#include "input/item_layout.h"

namespace ui {
namespace {

// One axis: the data range mapped onto pixels, linearly or through log10.
struct Axis {
  bool log = false;
  double lo = 0, hi = 1;
  float p0 = 0, p1 = 1;  // pixels of lo and hi

  bool usable(double v) const { return std::isfinite(v) && (!log || v > 0); }
  double t(double v) const { return log ? std::log10(v) : v; }
  float to_px(double v) const { return p0 + float((t(v) - t(lo)) / (t(hi) - t(lo))) * (p1 - p0); }
};

void data_range(const std::vector<PlotSeries>& series, bool x, bool log, double& lo, double& hi) {
  double a = INFINITY, b = -INFINITY;
  for (const PlotSeries& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      const double v = x ? s.x[i] : s.y[i];
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]) && (!log || v > 0)) a = std::min(a, v), b = std::max(b, v);
    }
  if (std::isnan(lo)) lo = std::isfinite(a) ? a : (log ? 1 : 0);
  if (std::isnan(hi)) hi = std::isfinite(b) ? b : lo + 1;
  if (!(hi > lo)) hi = log ? lo * 10 : lo + 1;
}

// [SECTION] axes and ticks

// An axis's ticks for `room_px` pixels, each label taking about `label_px`.
std::vector<double> ticks(const Axis& a, bool base2, bool integer, float room_px, float label_px) {
  return axis_ticks(a.lo, a.hi, a.log, base2, integer, int(room_px / label_px));
}

std::string tick_text(double v, bool log) {
  char text[32];
  if (log && (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3)) {
    std::snprintf(text, sizeof text, "1e%d", int(std::lround(std::log10(v))));
    return text;
  }
  return num(float(v));
}

// [SECTION] layout: where the plot's parts go, before anything is drawn

struct PlotLayout {
  float scale = 1, line = 0;   // the UI's scale and a text line's height
  ImVec2 top_left;             // the widget's corner
  float width = 0;             // the widget's width
  float swatch = 0, gap = 0;   // a legend entry's colour sample and the space after it
  float legend_h = 0;          // the legend's rows under the plot
  Axis ax, ay;                 // the data ranges on the plot area's pixels
  ImVec2 p0, p1;               // the plot area's corners
  struct Marker {              // a marker in the x range, and where its label goes
    const PlotMarker* marker;
    float x;                   // its line's pixel
    ImVec2 label;              // its label's corner, in the rows above the plot area
  };
  std::vector<Marker> markers;
  float height() const { return p1.y - top_left.y + line * 2 + 8 * scale + legend_h; }
};

// A row of marker labels above the plot area (row 0 is the y label's line).
float marker_row(const PlotLayout& l) { return l.line + 2 * l.scale; }

// A legend entry's width: its colour sample, its label and the space after it.
float legend_entry_w(const PlotLayout& l, const PlotSeries& s) {
  return l.swatch + 4 * l.scale + ImGui::CalcTextSize(s.label.c_str()).x + l.gap;
}

// The axes' data ranges: the spec's, or the finite data's (y from 0 unless log_y or the data
// goes below), with room for whole bars at the ends and headroom for the top point.
void data_ranges(const PlotSpec& spec, const std::vector<PlotSeries>& series, Axis& ax, Axis& ay) {
  ax.log = spec.log_x;
  ay.log = spec.log_y;
  ax.lo = spec.x_min, ax.hi = spec.x_max, ay.lo = spec.y_min, ay.hi = spec.y_max;
  data_range(series, true, ax.log, ax.lo, ax.hi);
  // Bars are centred on their x: half a bar's slot of room at each end keeps the outer ones whole.
  std::size_t bars = 0;
  for (const PlotSeries& s : series)
    if (s.style == PlotSeries::Style::bars) bars = std::max(bars, s.x.size());
  if (bars > 1 && !ax.log) {
    const double half = (ax.hi - ax.lo) / double(bars - 1) * 0.5;
    if (std::isnan(spec.x_min)) ax.lo -= half;
    if (std::isnan(spec.x_max)) ax.hi += half;
  }
  if (std::isnan(spec.y_min) && !ay.log) ay.lo = 0;
  data_range(series, false, ay.log, ay.lo, ay.hi);
  if (std::isnan(spec.y_max) && !ay.log) ay.hi += (ay.hi - ay.lo) * 0.05;  // headroom for the top point
}

bool marker_shown(const Axis& ax, const PlotMarker& m) { return ax.usable(m.x) && m.x >= ax.lo && m.x <= ax.hi; }

// The markers' labels in rows above the plot area (plot_layout.h): their rows, beyond the y
// label's line, come out of the plot area's height.
int place_markers(PlotLayout& l, const PlotSpec& spec, const std::vector<PlotMarker>& markers) {
  std::vector<MarkerLabelInput> in;
  for (const PlotMarker& m : markers)
    if (marker_shown(l.ax, m)) {
      in.push_back({l.ax.to_px(m.x), ImGui::CalcTextSize(m.label.c_str()).x});
      l.markers.push_back({&m, in.back().x, {}});
    }
  const float y_label_end = l.top_left.x + ImGui::CalcTextSize(spec.y_label.c_str()).x;
  const std::vector<MarkerLabelPlace> places =
      place_marker_labels(in, l.p0.x, l.top_left.x + l.width, y_label_end, 8 * l.scale, 3 * l.scale);
  for (std::size_t i = 0; i < places.size(); ++i)
    l.markers[i].label = ImVec2(places[i].left, l.top_left.y + float(places[i].row) * marker_row(l));
  return marker_label_rows(places);
}

// The widget's layout at `top_left`, `width` wide and `total` tall (legend included).
PlotLayout plot_layout(const PlotSpec& spec, const std::vector<PlotSeries>& series,
                       const std::vector<PlotMarker>& markers, ImVec2 top_left, float width, float total) {
  PlotLayout l;
  l.scale = ui_scale(), l.line = ImGui::GetTextLineHeight();
  l.top_left = top_left;
  l.width = width;
  // The legend wraps under the plot: measure its rows first.
  l.swatch = l.line * 1.2f, l.gap = 12 * l.scale;
  int legend_rows = series.empty() || !spec.legend ? 0 : 1;
  float legend_x = 0;
  for (const PlotSeries& s : series) {
    const float w = legend_entry_w(l, s);
    if (legend_x > 0 && legend_x + w > l.width) ++legend_rows, legend_x = 0;
    legend_x += w;
  }
  l.legend_h = legend_rows * (l.line + 4 * l.scale);
  data_ranges(spec, series, l.ax, l.ay);
  // Plot area: y tick labels and the rotated-free y label (above the axis) on the left.
  float tick_w = 0;
  const float y_room = total - l.legend_h - l.line * 4.0f - 8 * l.scale;
  for (double v : ticks(l.ay, false, false, y_room, l.line * 2.2f))
    tick_w = std::max(tick_w, ImGui::CalcTextSize(tick_text(v, l.ay.log).c_str()).x);
  l.p0.x = l.top_left.x + tick_w + 8 * l.scale;
  l.p1.x = l.top_left.x + l.width - 8 * l.scale;
  l.ax.p0 = l.p0.x, l.ax.p1 = l.p1.x;
  const float label_rows = float(place_markers(l, spec, markers) - 1) * marker_row(l);
  l.p0.y = l.top_left.y + l.line * 1.9f + label_rows;
  l.p1.y = l.p0.y + std::max(y_room - label_rows, 40 * l.scale);
  l.ay.p0 = l.p1.y, l.ay.p1 = l.p0.y;
  return l;
}

// [SECTION] drawing: axes, markers, series, legend

// The tick labels drawn, as layout() reports them (input/item_layout.h).
struct TickLabels {
  std::vector<std::string> x, y;
};

TickLabels draw_axes(const PlotLayout& l, const PlotSpec& spec, ImDrawList* draw) {
  TickLabels drawn;
  const ImU32 muted = ImGui::GetColorU32(palette().muted_text), grid = ImGui::GetColorU32(palette().card_border);
  const ImVec2 p0 = l.p0, p1 = l.p1;
  const float scale = l.scale, line = l.line;
  draw->AddText(ImVec2(l.top_left.x, l.top_left.y), muted, spec.y_label.c_str());
  draw->AddRect(p0, p1, grid);
  for (double v : ticks(l.ay, false, false, p1.y - p0.y, line * 2.2f)) {
    const float y = l.ay.to_px(v);
    draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    const std::string t = tick_text(v, l.ay.log);
    draw->AddText(ImVec2(p0.x - 5 * scale - ImGui::CalcTextSize(t.c_str()).x, y - line * 0.5f), muted, t.c_str());
    drawn.y.push_back(t);
  }
  float label_px = 0;
  for (double v : {l.ax.lo, l.ax.hi}) label_px = std::max(label_px, ImGui::CalcTextSize(tick_text(v, l.ax.log).c_str()).x);
  // A tick label that would touch the one before it (a plot a few ticks wide on a phone) is
  // left out; its grid line stays.
  float drawn_to = -INFINITY;
  for (double v : ticks(l.ax, spec.log2_x, spec.integer_x, p1.x - p0.x, label_px + 14 * scale)) {
    const float x = l.ax.to_px(v);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), grid);
    const std::string t = tick_text(v, l.ax.log);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    const float at = std::clamp(x - w * 0.5f, l.top_left.x, p1.x - w);
    if (at < drawn_to + 4 * scale) continue;
    draw->AddText(ImVec2(at, p1.y + 3 * scale), muted, t.c_str());
    drawn.x.push_back(t);
    drawn_to = at + w;
  }
  const float x_label_w = ImGui::CalcTextSize(spec.x_label.c_str()).x;
  draw->AddText(ImVec2(std::max(p0.x, (p0.x + p1.x - x_label_w) * 0.5f), p1.y + line + 5 * scale), muted,
                spec.x_label.c_str());
  return drawn;
}

// Vertical dashed lines, under the series, from under each one's label down the plot area.
void draw_marker_lines(const PlotLayout& l, ImDrawList* draw) {
  const float scale = l.scale;
  for (const PlotLayout::Marker& m : l.markers)
    for (float y = m.label.y + l.line; y < l.p1.y; y += 8 * scale)
      draw->AddLine(ImVec2(m.x, y), ImVec2(m.x, std::min(y + 4 * scale, l.p1.y)), plot_colour(m.marker->colour),
                    1.5f * scale);
}

void draw_marker_labels(const PlotLayout& l, ImDrawList* draw) {
  for (const PlotLayout::Marker& m : l.markers)
    draw->AddText(m.label, plot_colour(m.marker->colour), m.marker->label.c_str());
}

// A dashed polyline: the dash pattern runs along the whole line, since with dense points each
// segment is shorter than a dash, and restarting it per segment would draw a solid line.
void dashed_line(const std::vector<ImVec2>& run, ImU32 colour, float scale, ImDrawList* draw) {
  const float dash = 6 * scale;
  float along = 0;  // distance from the line's start to the segment's start
  for (std::size_t i = 1; i < run.size(); ++i) {
    const ImVec2 a = run[i - 1], b = run[i];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    for (float d = 0; d < len;) {
      const float phase = std::fmod(along + d, 2 * dash);
      const float e = std::min(len, d + (phase < dash ? dash - phase : 2 * dash - phase));
      if (phase < dash)
        draw->AddLine(ImVec2(a.x + (b.x - a.x) * d / len, a.y + (b.y - a.y) * d / len),
                      ImVec2(a.x + (b.x - a.x) * e / len, a.y + (b.y - a.y) * e / len), colour, 2 * scale);
      d = e;
    }
    along += len;
  }
}

// One series: bars from the x axis, or lines through its drawable points (a gap, a point a
// log axis cannot show, breaks the line), with a dot at each point if asked.
void draw_series(const PlotLayout& l, const PlotSeries& s, float bar_w, ImDrawList* draw) {
  const ImU32 c = plot_colour(s.colour);
  std::vector<ImVec2> run;  // a stretch of drawable points; a gap ends it
  auto flush = [&] {
    if (s.style == PlotSeries::Style::dashed) dashed_line(run, c, l.scale, draw);
    else if (run.size() > 1) draw->AddPolyline(run.data(), int(run.size()), c, 0, 2 * l.scale);
    run.clear();
  };
  for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!l.ax.usable(s.x[i]) || !l.ay.usable(s.y[i])) {
      flush();
      continue;
    }
    const ImVec2 p(l.ax.to_px(s.x[i]), l.ay.to_px(s.y[i]));
    if (s.style == PlotSeries::Style::bars) {
      draw->AddRectFilled(ImVec2(p.x - bar_w * 0.5f, std::min(p.y, l.ay.p0)), ImVec2(p.x + bar_w * 0.5f, l.ay.p0),
                          (c & 0x00ffffff) | (170u << 24));
      continue;
    }
    run.push_back(p);
    if (s.points) draw->AddCircleFilled(p, 2.5f * l.scale, c);
  }
  flush();
}

// A bar's width: most of its slot among the most bars any series has.
float bar_width(const PlotLayout& l, const std::vector<PlotSeries>& series) {
  std::size_t most = 1;
  for (const PlotSeries& s : series)
    if (s.style == PlotSeries::Style::bars) most = std::max(most, s.x.size());
  return std::max(1.0f, (l.p1.x - l.p0.x) / float(most) * 0.8f);
}

void draw_legend(const PlotLayout& l, const std::vector<PlotSeries>& series, ImDrawList* draw) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float scale = l.scale, line = l.line;
  float x = l.top_left.x, y = l.p1.y + line * 2 + 8 * scale;
  for (const PlotSeries& s : series) {
    const float w = legend_entry_w(l, s);
    if (x > l.top_left.x && x + w > l.top_left.x + l.width) x = l.top_left.x, y += line + 4 * scale;
    const float mid = y + line * 0.5f;
    if (s.style == PlotSeries::Style::bars)
      draw->AddRectFilled(ImVec2(x, y + line * 0.2f), ImVec2(x + l.swatch, y + line * 0.8f), plot_colour(s.colour));
    else
      draw->AddLine(ImVec2(x, mid), ImVec2(x + l.swatch, mid), plot_colour(s.colour),
                    s.style == PlotSeries::Style::dashed ? 1.5f * scale : 2.5f * scale);
    draw->AddText(ImVec2(x + l.swatch + 4 * scale, y), text, s.label.c_str());
    x += w;
  }
}

// [SECTION] hover readout: the nearest x among the series' points, then every series' value there.
void hover_readout(const PlotLayout& l, const PlotSpec& spec, const std::vector<PlotSeries>& series, ImDrawList* draw) {
  const float mx = ImGui::GetIO().MousePos.x;
  double best = NAN;
  float best_d = INFINITY;
  for (const PlotSeries& s : series)
    for (double v : s.x)
      if (l.ax.usable(v) && std::fabs(l.ax.to_px(v) - mx) < best_d) best_d = std::fabs(l.ax.to_px(v) - mx), best = v;
  if (!std::isfinite(best)) return;
  const float x = l.ax.to_px(best);
  draw->AddLine(ImVec2(x, l.p0.y), ImVec2(x, l.p1.y), ImGui::GetColorU32(palette().muted_text));
  begin_readout();
  ImGui::Text("%s = %s", spec.x_label.c_str(), num(float(best)).c_str());
  for (const PlotSeries& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (s.x[i] == best) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(plot_colour(s.colour)), "%s: %s", s.label.c_str(),
                           num(float(s.y[i])).c_str());
        break;
      }
  end_readout();
}

}  // namespace

ImU32 plot_colour(int index) {
  static const ImU32 light[] = {IM_COL32(47, 95, 208, 255),  IM_COL32(230, 119, 0, 255),  IM_COL32(30, 150, 80, 255),
                                IM_COL32(136, 64, 190, 255), IM_COL32(210, 40, 50, 255),  IM_COL32(0, 150, 160, 255),
                                IM_COL32(140, 90, 50, 255),  IM_COL32(110, 110, 120, 255)};
  static const ImU32 dark[] = {IM_COL32(122, 162, 247, 255), IM_COL32(255, 170, 80, 255),  IM_COL32(110, 210, 130, 255),
                               IM_COL32(200, 150, 250, 255), IM_COL32(255, 110, 110, 255), IM_COL32(90, 210, 220, 255),
                               IM_COL32(210, 170, 120, 255), IM_COL32(170, 170, 180, 255)};
  const int i = ((index % 8) + 8) % 8;
  return palette().dark ? dark[i] : light[i];
}

float plot_height(const PlotSpec& spec, const std::vector<PlotSeries>& series, const std::vector<PlotMarker>& markers,
                  float width, float area) {
  // What the widget takes besides its area (the legend's rows, the markers' rows, the axes'
  // lines) depends on the area's height only through the y ticks' widths: laid out at a height
  // that leaves room to spare, then at the height that gives.
  float total = area + 1000 * ui_scale();
  for (int pass = 0; pass < 2; ++pass) {
    const PlotLayout l = plot_layout(spec, series, markers, ImVec2(0, 0), width, total);
    total += area - (l.p1.y - l.p0.y);
  }
  return total;
}

void plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
          const std::vector<PlotMarker>& markers) {
  ImGui::PushID(id);
  const float total = spec.height > 0 ? spec.height * ui_scale() : ImGui::GetContentRegionAvail().y;
  const PlotLayout l =
      plot_layout(spec, series, markers, ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x, total);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const TickLabels ticks = draw_axes(l, spec, draw);
  draw_marker_lines(l, draw);
  draw_marker_labels(l, draw);
  draw->PushClipRect(l.p0, l.p1, true);
  const float bar_w = bar_width(l, series);
  for (const PlotSeries& s : series) draw_series(l, s, bar_w, draw);
  draw->PopClipRect();
  if (spec.legend) draw_legend(l, series, draw);
  // The plot area as an item: the layout names it, and hovering it reads the values.
  ImGui::SetCursorScreenPos(l.p0);
  input::next_item(input::ItemKind::plot);
  ImGui::InvisibleButton("plot", ImVec2(l.p1.x - l.p0.x, l.p1.y - l.p0.y));
  input::describe_plot(ImGui::GetID("plot"), ticks.x, ticks.y);
  if (ImGui::IsItemHovered() && !series.empty()) hover_readout(l, spec, series, draw);
  ImGui::SetCursorScreenPos(l.top_left);
  ImGui::Dummy(ImVec2(l.width, l.height()));
  ImGui::PopID();
}

}  // namespace ui
