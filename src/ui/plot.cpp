// [SECTION] axes and ticks, [SECTION] series, [SECTION] legend and hover readout.
#include "plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "explain.h"
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

// Tick values: powers of 10 (or of 2) on a log axis, 1-2-5 steps on a linear one.
std::vector<double> ticks(const Axis& a, bool base2, float room_px, float label_px) {
  std::vector<double> out;
  const int most = std::max(2, int(room_px / label_px));
  if (a.log) {
    const double base = base2 ? 2 : 10, lb = std::log(base);
    const int e0 = int(std::ceil(std::log(a.lo) / lb - 1e-9)), e1 = int(std::floor(std::log(a.hi) / lb + 1e-9));
    const int every = std::max(1, (e1 - e0 + most) / most);
    for (int e = e0; e <= e1; e += every) out.push_back(std::pow(base, e));
    return out;
  }
  const double raw = (a.hi - a.lo) / most, mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
  for (double v = std::ceil(a.lo / step - 1e-9) * step; v <= a.hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return out;
}

std::string tick_text(double v, bool log) {
  char text[32];
  if (log && (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3)) {
    std::snprintf(text, sizeof text, "1e%d", int(std::lround(std::log10(v))));
    return text;
  }
  return num(float(v));
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

void plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
          const std::vector<PlotMarker>& markers) {
  ImGui::PushID(id);
  const float scale = ImGui::GetFontSize() / 16.0f, line = ImGui::GetTextLineHeight();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), muted = ImGui::GetColorU32(palette().muted_text);
  const ImU32 grid = ImGui::GetColorU32(palette().card_border);
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;

  // The legend wraps under the plot: measure its rows first.
  const float swatch = line * 1.2f, gap = 12 * scale;
  int legend_rows = series.empty() ? 0 : 1;
  float legend_x = 0;
  for (const PlotSeries& s : series) {
    const float w = swatch + 4 * scale + ImGui::CalcTextSize(s.label.c_str()).x + gap;
    if (legend_x > 0 && legend_x + w > width) ++legend_rows, legend_x = 0;
    legend_x += w;
  }
  const float legend_h = legend_rows * (line + 4 * scale);

  Axis ax, ay;
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

  // Plot area: y tick labels and the rotated-free y label (above the axis) on the left.
  float tick_w = 0;
  const float total = spec.height > 0 ? spec.height * scale : ImGui::GetContentRegionAvail().y;
  const float y_room = total - legend_h - line * 4.0f - 8 * scale;
  for (double v : ticks(ay, false, y_room, line * 2.2f))
    tick_w = std::max(tick_w, ImGui::CalcTextSize(tick_text(v, ay.log).c_str()).x);
  const ImVec2 p0(top_left.x + tick_w + 8 * scale, top_left.y + line * 1.9f);
  const ImVec2 p1(top_left.x + width - 8 * scale, p0.y + std::max(y_room, 40 * scale));
  ax.p0 = p0.x, ax.p1 = p1.x;
  ay.p0 = p1.y, ay.p1 = p0.y;

  // [SECTION] axes and ticks
  draw->AddText(ImVec2(top_left.x, top_left.y), muted, spec.y_label.c_str());
  draw->AddRect(p0, p1, grid);
  for (double v : ticks(ay, false, p1.y - p0.y, line * 2.2f)) {
    const float y = ay.to_px(v);
    draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    const std::string t = tick_text(v, ay.log);
    draw->AddText(ImVec2(p0.x - 5 * scale - ImGui::CalcTextSize(t.c_str()).x, y - line * 0.5f), muted, t.c_str());
  }
  float label_px = 0;
  for (double v : {ax.lo, ax.hi}) label_px = std::max(label_px, ImGui::CalcTextSize(tick_text(v, ax.log).c_str()).x);
  for (double v : ticks(ax, spec.log2_x, p1.x - p0.x, label_px + 14 * scale)) {
    const float x = ax.to_px(v);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), grid);
    const std::string t = tick_text(v, ax.log);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    draw->AddText(ImVec2(std::clamp(x - w * 0.5f, top_left.x, p1.x - w), p1.y + 3 * scale), muted, t.c_str());
  }
  const float x_label_w = ImGui::CalcTextSize(spec.x_label.c_str()).x;
  draw->AddText(ImVec2(std::max(p0.x, (p0.x + p1.x - x_label_w) * 0.5f), p1.y + line + 5 * scale), muted,
                spec.x_label.c_str());

  // [SECTION] series
  draw->PushClipRect(p0, p1, true);
  const auto shown = [&](const PlotMarker& m) { return ax.usable(m.x) && m.x >= ax.lo && m.x <= ax.hi; };
  for (const PlotMarker& m : markers) {
    if (!shown(m)) continue;
    const float x = ax.to_px(m.x);
    for (float y = p0.y; y < p1.y; y += 8 * scale)
      draw->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 4 * scale, p1.y)), plot_colour(m.colour), 1.5f * scale);
  }
  const float bar_w = [&] {
    std::size_t most = 1;
    for (const PlotSeries& s : series)
      if (s.style == PlotSeries::Style::bars) most = std::max(most, s.x.size());
    return std::max(1.0f, (p1.x - p0.x) / float(most) * 0.8f);
  }();
  for (const PlotSeries& s : series) {
    const ImU32 c = plot_colour(s.colour);
    std::vector<ImVec2> run;  // a stretch of drawable points; a gap ends it
    auto flush = [&] {
      if (s.style == PlotSeries::Style::dashed) {
        // The dash pattern runs along the whole line: with dense points each segment is
        // shorter than a dash, and restarting it per segment would draw a solid line.
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
                            ImVec2(a.x + (b.x - a.x) * e / len, a.y + (b.y - a.y) * e / len), c, 2 * scale);
            d = e;
          }
          along += len;
        }
      } else if (run.size() > 1) draw->AddPolyline(run.data(), int(run.size()), c, 0, 2 * scale);
      run.clear();
    };
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!ax.usable(s.x[i]) || !ay.usable(s.y[i])) {
        flush();
        continue;
      }
      const ImVec2 p(ax.to_px(s.x[i]), ay.to_px(s.y[i]));
      if (s.style == PlotSeries::Style::bars) {
        draw->AddRectFilled(ImVec2(p.x - bar_w * 0.5f, std::min(p.y, ay.p0)), ImVec2(p.x + bar_w * 0.5f, ay.p0),
                            (c & 0x00ffffff) | (170u << 24));
        continue;
      }
      run.push_back(p);
      if (s.points) draw->AddCircleFilled(p, 2.5f * scale, c);
    }
    flush();
  }
  // The markers' labels over the series, each on the card's colour: a curve never strikes one through.
  for (const PlotMarker& m : markers) {
    if (!shown(m)) continue;
    const float x = ax.to_px(m.x), w = ImGui::CalcTextSize(m.label.c_str()).x;
    const ImVec2 at(x + w + 4 * scale < p1.x ? x + 3 * scale : x - w - 3 * scale, p0.y + 2 * scale);
    draw->AddRectFilled(ImVec2(at.x - 2 * scale, at.y), ImVec2(at.x + w + 2 * scale, at.y + line),
                        ImGui::GetColorU32(palette().card));
    draw->AddText(at, plot_colour(m.colour), m.label.c_str());
  }
  draw->PopClipRect();

  // [SECTION] legend and hover readout
  {
    float x = top_left.x, y = p1.y + line * 2 + 8 * scale;
    for (const PlotSeries& s : series) {
      const float w = swatch + 4 * scale + ImGui::CalcTextSize(s.label.c_str()).x + gap;
      if (x > top_left.x && x + w > top_left.x + width) x = top_left.x, y += line + 4 * scale;
      const float mid = y + line * 0.5f;
      if (s.style == PlotSeries::Style::bars)
        draw->AddRectFilled(ImVec2(x, y + line * 0.2f), ImVec2(x + swatch, y + line * 0.8f), plot_colour(s.colour));
      else
        draw->AddLine(ImVec2(x, mid), ImVec2(x + swatch, mid), plot_colour(s.colour),
                      s.style == PlotSeries::Style::dashed ? 1.5f * scale : 2.5f * scale);
      draw->AddText(ImVec2(x + swatch + 4 * scale, y), text, s.label.c_str());
      x += w;
    }
  }
  const float total_h = p1.y - top_left.y + line * 2 + 8 * scale + legend_h;
  ImGui::SetCursorScreenPos(p0);
  input::next_item(input::ItemKind::plot);
  ImGui::InvisibleButton("plot", ImVec2(p1.x - p0.x, p1.y - p0.y));
  if (ImGui::IsItemHovered() && !series.empty()) {
    // The nearest x among the series' points, then every series' value there.
    const float mx = ImGui::GetIO().MousePos.x;
    double best = NAN;
    float best_d = INFINITY;
    for (const PlotSeries& s : series)
      for (double v : s.x)
        if (ax.usable(v) && std::fabs(ax.to_px(v) - mx) < best_d) best_d = std::fabs(ax.to_px(v) - mx), best = v;
    if (std::isfinite(best)) {
      const float x = ax.to_px(best);
      draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), muted);
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
  }
  ImGui::SetCursorScreenPos(top_left);
  ImGui::Dummy(ImVec2(width, total_h));
  ImGui::PopID();
}

}  // namespace ui
