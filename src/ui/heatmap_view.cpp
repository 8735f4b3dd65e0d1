#include "heatmap_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "accessibility.h"
#include "explain.h"
#include "heatmap_layout.h"
#include "i18n.h"
#include "input/item_layout.h"
#include "input/scroll.h"
#include "theme.h"

namespace ui {
namespace {

constexpr int kLegendSteps = 128;

}  // namespace

ImTextureID gl_texture(unsigned name) { return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(name)); }

void draw_heatmap(render::Heatmap& map, const float* values, int rows, int cols, std::uint64_t version, ImVec2 min,
                  ImVec2 max, const render::CellRect& view, const render::HeatmapLook& look, ImU32 tint) {
  if (!ImGui::IsRectVisible(min, max)) return;
  map.set_values(values, rows, cols, version);
  ImGui::GetWindowDrawList()->AddImage(gl_texture(map.paint(int(max.x - min.x), int(max.y - min.y), view, look)), min,
                                       max, ImVec2(0, 0), ImVec2(1, 1), tint);
}

render::HeatmapLook heatmap_look(const HeatmapSpec& spec) {
  render::HeatmapLook look;
  look.map = spec.map;
  look.lo = spec.lo;
  look.hi = spec.hi;
  look.dim = spec.dimmed ? 0.72f : 0.0f;
  const Palette& p = palette();
  std::copy(p.background, p.background + 3, look.background);
  std::copy(p.hatch, p.hatch + 3, look.hatch);
  return look;
}

// Readable text over a cell: light on the dark ends of the maps, dark in their middle/top.
ImU32 cell_text_colour(const HeatmapSpec& spec, float x) {
  if (std::isinf(x)) return ImGui::GetColorU32(ImGuiCol_Text);
  const float t = std::clamp((x - spec.lo) / std::max(spec.hi - spec.lo, 1e-20f), 0.0f, 1.0f);
  const bool light = spec.map == render::Colormap::sequential ? t < 0.62f : std::fabs(t - 0.5f) > 0.33f;
  return light ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 24, 32, 255);
}

namespace {

ImVec4 with_alpha(ImVec4 c, float a) {
  c.w *= a;
  return c;
}

// The symmetric range ±max|x| over finite values (a diverging map centred on zero).
float symmetric_bound(const attn::Matrix& m) {
  float bound = 0;
  for (int i = 0; i < m.size(); ++i)
    if (std::isfinite(m.data()[i])) bound = std::max(bound, std::fabs(m.data()[i]));
  return bound > 0 ? bound : 1.0f;
}

}  // namespace

// This frame's layout on screen: the widget's corner, the plot's, and the cells in view.
struct HeatmapView::Placed {
  HeatmapLayout layout;
  ImVec2 top_left, origin;
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;  // the cells on screen: [r0, r1) × [c0, c1)
  ImVec2 cell_pos(const render::CellRect& view, int r, int c) const {
    return ImVec2(origin.x + (c - view.x0) * layout.cell.w, origin.y + (r - view.y0) * layout.cell.h);
  }
  ImVec2 plot_end() const { return ImVec2(origin.x + layout.plot.w, origin.y + layout.plot.h); }
};

TextMetrics HeatmapView::text_metrics() {
  TextMetrics text;
  text.width = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  text.line = ImGui::GetTextLineHeight();
  text.unit = ui_scale();
  ImGui::PushFont(fonts().small);
  text.digit = ImGui::CalcTextSize("0").x;
  ImGui::PopFont();
  return text;
}

void HeatmapView::measure(const HeatmapSpec& spec) {
  if (spec.version == measured_version_) return;
  const attn::Matrix& m = *spec.values;
  bound_ = symmetric_bound(m);
  any_masked_ = false;
  for (int i = 0; i < m.size() && !any_masked_; ++i) any_masked_ = std::isinf(m.data()[i]);
  measured_version_ = spec.version;
}

HeatmapHit HeatmapView::draw(const char* id, const HeatmapSpec& given) {
  const attn::Matrix& m = *given.values;
  HeatmapSpec spec = given;
  measure(spec);
  if (spec.map == render::Colormap::diverging) {
    spec.lo = -(spec.bound > 0 ? spec.bound : bound_);
    spec.hi = -spec.lo;
  }
  const int rows = int(m.rows()), cols = int(m.cols());
  const bool reshaped = rows != rows_ || cols != cols_;
  if (reshaped) view_ = {0, 0, float(cols), float(rows)};
  rows_ = rows;
  cols_ = cols;
  shown_ = spec;

  ImGui::PushID(id);
  const TextMetrics text = text_metrics();
  Placed at;
  HeatmapLayoutInput in;
  in.rows = rows;
  in.cols = cols;
  in.room = {ImGui::GetContentRegionAvail().x, spec.height};
  in.max_cell = spec.max_cell;
  in.row_label = spec.row_label;
  in.masked = tr("masked (−∞)");
  in.any_masked = any_masked_;
  // The colour bar's ends to three significant digits (a scale's size, not its fourth decimal:
  // "−8.01", not "−8.0076"), or in fewer characters where the legend would run past the card
  // (a clipped "0.557" reads "0.5"): never cut, only rounded.
  const auto lay_out = [&] {
    in.shown = {view_.x1 - view_.x0, view_.y1 - view_.y0};
    for (int chars : {0, 6, 5, 4, 3}) {
      const std::string lo = chars ? num_fit(spec.lo, chars) : num_rounded(spec.lo, kLegendDigits),
                        hi = chars ? num_fit(spec.hi, chars) : num_rounded(spec.hi, kLegendDigits);
      if (lo.empty() || hi.empty()) break;
      in.lo = lo, in.hi = hi;
      at.layout = heatmap_layout(in, text);
      if (at.layout.label_w + at.layout.legend_w <= in.room.w) break;
    }
  };
  lay_out();
  if (spec.zoom_to_read && zoom_to_read(spec, at.layout.cell.h, text, reshaped)) lay_out();
  at.top_left = ImGui::GetCursorScreenPos();
  at.origin = ImVec2(at.top_left.x + at.layout.label_w, at.top_left.y + at.layout.top);

  ImGui::SetCursorScreenPos(at.origin);
  // Where a drag pans (zoomed in) or paints, a touch drags instead of scrolling the page.
  const bool zoomable = rows > 24 || cols > 24;
  const bool zoomed = in.shown.w < float(cols) || in.shown.h < float(rows);
  bool hovered = false;
  if (!spec.picture) {
    input::next_item(input::ItemKind::heatmap, spec.title ? spec.title : id, zoomed || spec.paints, zoomable);
    ImGui::InvisibleButton("plot", ImVec2(at.layout.plot.w, at.layout.plot.h));
    hovered = ImGui::IsItemHovered();
    pan_and_zoom(at, spec, zoomable, hovered);
  }
  // The picture, painted by the colormap shader.
  draw_heatmap(map_, m.data(), rows, cols, spec.version, at.origin, at.plot_end(), view_, heatmap_look(spec));

  HeatmapHit hit;
  hit.min = at.top_left;
  hit.max = ImVec2(at.top_left.x + at.layout.size.w, at.top_left.y + at.layout.size.h);
  if (hovered) {
    const ImGuiIO& io = ImGui::GetIO();
    hit.col = std::clamp(int(view_.x0 + (io.MousePos.x - at.origin.x) / at.layout.cell.w), 0, cols - 1);
    hit.row = std::clamp(int(view_.y0 + (io.MousePos.y - at.origin.y) / at.layout.cell.h), 0, rows - 1);
    hit.clicked = ImGui::IsItemDeactivated() &&
                  io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold;
  }
  at.r0 = int(view_.y0);
  at.r1 = std::min(rows, int(std::ceil(view_.y1)));
  at.c0 = int(view_.x0);
  at.c1 = std::min(cols, int(std::ceil(view_.x1)));
  draw_labels(at, spec, text);
  const bool values = draw_cells(at, spec, text, hit);
  input::describe_heatmap(ImGui::GetID("plot"), values ? fonts().small_em : 0, row_labels_, col_labels_, {in.lo, in.hi});
  draw_legend(at, spec, in, text);
  ImGui::SetCursorScreenPos(at.top_left);
  ImGui::Dummy(ImVec2(at.layout.size.w, at.layout.size.h));
  ImGui::PopID();
  return hit;
}

bool HeatmapView::zoom_to_read(const HeatmapSpec& spec, float cell, const TextMetrics& text, bool reshaped) {
  const int row = spec.highlight_row >= 0 && spec.highlight_row < rows_ ? spec.highlight_row : rows_ - 1;
  const bool moved = row != std::exchange(read_row_, row);
  if (!reshaped && !moved) return false;
  const float line = text.line + 4 * text.unit;  // a label and a little room
  float k = view_.y1 - view_.y0, kx = view_.x1 - view_.x0;
  if (reshaped) {
    if (cell >= line) return false;
    // The whole matrix gives a row `cell`: k rows of `line` take the same height.
    k = std::max(std::min(8.0f, float(rows_)), std::floor(cell * float(rows_) / line));
    kx = std::min(k, float(cols_));
  } else if (k >= float(rows_) && kx >= float(cols_)) {
    return false;  // all of it in view
  }
  // The rows around `row`, the columns around its largest value (where an induction head's
  // query looks, far from the diagonal), whole cells from the edge: half a row at the top would
  // take its label's place and leave the next row unlabelled.
  Eigen::Index strongest = 0;
  spec.values->row(row).maxCoeff(&strongest);
  const float y0 = std::clamp(std::floor(float(row) + 0.5f - k / 2), 0.0f, float(rows_) - k);
  const float x0 = std::clamp(std::floor(float(strongest) + 0.5f - kx / 2), 0.0f, float(cols_) - kx);
  view_ = {x0, y0, x0 + kx, y0 + k};
  return true;
}

// Pan and zoom through the texture (Ctrl+wheel or a pinch: input/scroll.h); double-click
// shows the whole matrix again; the keyboard's cell is panned into view.
void HeatmapView::pan_and_zoom(const Placed& at, const HeatmapSpec& spec, bool zoomable, bool hovered) {
  const float cw = at.layout.cell.w, ch = at.layout.cell.h;
  const float vw = view_.x1 - view_.x0, vh = view_.y1 - view_.y0;
  const ImGuiIO& io = ImGui::GetIO();
  if (const auto zoom = input::take_zoom(at.origin, at.plot_end()); zoom && zoomable) {
    const float cx = view_.x0 + (zoom->at.x - at.origin.x) / cw;
    const float cy = view_.y0 + (zoom->at.y - at.origin.y) / ch;
    const float nw = std::clamp(vw * zoom->factor, std::min(8.0f, float(cols_)), float(cols_));
    const float nh = std::clamp(vh * zoom->factor, std::min(8.0f, float(rows_)), float(rows_));
    view_.x0 = cx - (cx - view_.x0) * nw / vw - zoom->pan.x / cw;
    view_.y0 = cy - (cy - view_.y0) * nh / vh - zoom->pan.y / ch;
    view_.x1 = view_.x0 + nw;
    view_.y1 = view_.y0 + nh;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    view_.x0 -= io.MouseDelta.x / cw;
    view_.x1 -= io.MouseDelta.x / cw;
    view_.y0 -= io.MouseDelta.y / ch;
    view_.y1 -= io.MouseDelta.y / ch;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) view_ = {0, 0, float(cols_), float(rows_)};
  if (spec.focus_row >= 0) {
    const float fx = float(spec.focus_col), fy = float(spec.focus_row);
    const float dx = fx < view_.x0 ? fx - view_.x0 : fx + 1 > view_.x1 ? fx + 1 - view_.x1 : 0;
    const float dy = fy < view_.y0 ? fy - view_.y0 : fy + 1 > view_.y1 ? fy + 1 - view_.y1 : 0;
    view_ = {view_.x0 + dx, view_.y0 + dy, view_.x1 + dx, view_.y1 + dy};
  }
  const float sx = std::clamp(view_.x0, 0.0f, float(cols_) - (view_.x1 - view_.x0)) - view_.x0;
  const float sy = std::clamp(view_.y0, 0.0f, float(rows_) - (view_.y1 - view_.y0)) - view_.y0;
  view_ = {view_.x0 + sx, view_.y0 + sy, view_.x1 + sx, view_.y1 + sy};
}

// Axis labels (axis_labels: a stride when they do not all fit, the last in view always). The
// selected row's label always shows, in the highlight colour, so the outlined row can be found
// by name in a large matrix. Clipped to the widget, not the plot: a label wider than its cell
// at an edge reaches past the plot rather than being cut ("k15", not "k1").
void HeatmapView::draw_labels(const Placed& at, const HeatmapSpec& spec, const TextMetrics& text) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 muted = ImGui::GetColorU32(palette().muted_text);
  const HeatmapLayout& l = at.layout;
  const float line = text.line, u = text.unit;
  draw->PushClipRect(at.top_left, ImVec2(at.top_left.x + l.size.w, at.top_left.y + l.size.h), true);
  AxisSpan rows;
  rows.first = at.r0;
  rows.end = at.r1;
  rows.start = (float(at.r0) - view_.y0) * l.cell.h;
  rows.cell = l.cell.h;
  rows.lo = 0;
  rows.hi = l.plot.h;
  rows.keep = spec.highlight_row;
  row_labels_.clear();
  for (const AxisLabel& a : axis_labels(rows, [line](int) { return line; }, line)) {
    const std::string label = spec.row_label(a.index);
    const float w = text.width(label);
    const ImU32 colour = a.index == spec.highlight_row ? ImGui::GetColorU32(palette().highlight) : muted;
    draw->AddText(ImVec2(at.origin.x - w - 6 * u, at.origin.y + a.at), colour, label.c_str());
    row_labels_.push_back(label);
  }
  AxisSpan cols;
  cols.first = at.c0;
  cols.end = at.c1;
  cols.start = (float(at.c0) - view_.x0) * l.cell.w;
  cols.cell = l.cell.w;
  cols.lo = -l.label_w;
  cols.hi = l.size.w - l.label_w;
  cols.gap = 6 * u;
  col_labels_.clear();
  const auto width = [&](int c) { return text.width(spec.col_label(c)); };
  for (const AxisLabel& a : axis_labels(cols, width, widest_label(spec.col_label, at.c0, at.c1 - 1, text))) {
    const std::string label = spec.col_label(a.index);
    draw->AddText(ImVec2(at.origin.x + a.at, at.top_left.y), muted, label.c_str());
    col_labels_.push_back(label);
  }
  draw->PopClipRect();
}

// Values in the cells when every number fits, the selected query row outlined, the hovered
// cell and the keyboard's.
bool HeatmapView::draw_cells(const Placed& at, const HeatmapSpec& spec, const TextMetrics& text,
                             const HeatmapHit& hit) const {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const attn::Matrix& m = *spec.values;
  const float cw = at.layout.cell.w, ch = at.layout.cell.h, u = text.unit;
  draw->PushClipRect(at.origin, at.plot_end(), true);
  ImGui::PushFont(fonts().small);
  const int max_chars = value_chars(at.layout.cell, text);
  static std::vector<std::string> shown;  // storage kept from frame to frame
  const bool values = max_chars >= kLeastValueChars && !spec.dimmed &&
                      nums_fit(m, at.r0, at.r1, at.c0, at.c1, max_chars, shown);
  if (values) {
    std::size_t i = 0;
    for (int r = at.r0; r < at.r1; ++r)
      for (int c = at.c0; c < at.c1; ++c) {
        const std::string& value = shown[i++];
        const ImVec2 t = ImGui::CalcTextSize(value.c_str());
        const ImVec2 p = at.cell_pos(view_, r, c);
        draw->AddText(ImVec2(p.x + (cw - t.x) * 0.5f, p.y + (ch - t.y) * 0.5f), cell_text_colour(spec, m(r, c)),
                      value.c_str());
      }
  }
  ImGui::PopFont();
  if (spec.highlight_row >= at.r0 && spec.highlight_row < at.r1) {
    const ImVec2 a = at.cell_pos(view_, spec.highlight_row, at.c0);
    const float t = 2.5f * u;
    draw->AddRect(ImVec2(at.origin.x + t * 0.5f, a.y + t * 0.5f),
                  ImVec2(at.origin.x + at.layout.plot.w - t * 0.5f, a.y + ch - t * 0.5f),
                  ImGui::GetColorU32(with_alpha(palette().highlight, spec.dimmed ? 0.5f : 1.0f)), 3 * u, 0, t);
  }
  if (hit.row >= 0) {
    const ImVec2 a = at.cell_pos(view_, hit.row, hit.col);
    draw->AddRect(a, ImVec2(a.x + cw, a.y + ch), ImGui::GetColorU32(ImGuiCol_Text), 0, 0, 1.5f * u);
  }
  draw->PopClipRect();
  if (spec.focus_row >= 0) {
    const ImVec2 a = at.cell_pos(view_, spec.focus_row, spec.focus_col);
    focus_ring(a, ImVec2(a.x + cw, a.y + ch));
  }
  return values;
}

// The legend: the colormap from lo to hi, and the masked pattern when the matrix has any.
void HeatmapView::draw_legend(const Placed& at, const HeatmapSpec& spec, const HeatmapLayoutInput& in,
                              const TextMetrics& text) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const HeatmapLayout& l = at.layout;
  const float line = text.line, u = text.unit;
  const ImU32 muted = ImGui::GetColorU32(palette().muted_text);
  static attn::Matrix ramp;
  if (ramp.cols() != kLegendSteps) {
    ramp.resize(1, kLegendSteps);
    for (int i = 0; i < kLegendSteps; ++i) ramp(0, i) = float(i) / (kLegendSteps - 1);
  }
  legend_.set_values(ramp.data(), 1, kLegendSteps, 1);
  render::HeatmapLook look = heatmap_look(spec);
  look.lo = 0;
  look.hi = 1;
  const unsigned bar = legend_.paint(int(l.bar_w), int(l.bar_h), {0, 0, float(kLegendSteps), 1}, look);
  const float y = at.origin.y + l.text_y;
  draw->AddText(ImVec2(at.origin.x + l.lo_x, y), muted, in.lo.c_str());
  const ImVec2 a(at.origin.x + l.bar_x, at.origin.y + l.bar_y);
  draw->AddImage(gl_texture(bar), a, ImVec2(a.x + l.bar_w, a.y + l.bar_h));
  draw->AddText(ImVec2(at.origin.x + l.hi_x, y), muted, in.hi.c_str());
  if (!in.any_masked) return;
  const ImVec2 b(at.origin.x + l.masked_x, at.origin.y + l.masked_y);
  const float box = line;
  const ImU32 hatch = ImGui::GetColorU32(ImVec4(palette().hatch[0], palette().hatch[1], palette().hatch[2], 1));
  draw->PushClipRect(b, ImVec2(b.x + box, b.y + box), true);
  for (float d = 0; d < box * 2; d += 6 * u)  // the same diagonal stripes as the map
    draw->AddLine(ImVec2(b.x + d - box, b.y + box), ImVec2(b.x + d, b.y), hatch, 2 * u);
  draw->PopClipRect();
  draw->AddRect(b, ImVec2(b.x + box, b.y + box), muted);
  draw->AddText(ImVec2(b.x + box + l.gap, b.y), ImGui::GetColorU32(ImGuiCol_Text, spec.dimmed ? 0.45f : 1.0f),
                in.masked.c_str());
}

}  // namespace ui
