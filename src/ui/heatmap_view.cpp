#include "heatmap_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "accessibility.h"
#include "explain.h"
#include "i18n.h"
#include "input/item_layout.h"
#include "input/scroll.h"
#include "theme.h"

namespace ui {
namespace {

constexpr int kLegendSteps = 128;

}  // namespace

ImTextureID gl_texture(unsigned name) { return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(name)); }

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

HeatmapHit HeatmapView::draw(const char* id, const HeatmapSpec& given) {
  HeatmapHit hit;
  const attn::Matrix& m = *given.values;
  HeatmapSpec spec = given;
  if (spec.version != measured_version_) {
    bound_ = symmetric_bound(m);
    any_masked_ = false;
    for (int i = 0; i < m.size() && !any_masked_; ++i) any_masked_ = std::isinf(m.data()[i]);
    measured_version_ = spec.version;
  }
  if (spec.map == render::Colormap::diverging) {
    spec.lo = -bound_;
    spec.hi = bound_;
  }
  const int rows = int(m.rows()), cols = int(m.cols());
  if (rows != rows_ || cols != cols_) view_ = {0, 0, float(cols), float(rows)};
  rows_ = rows;
  cols_ = cols;
  map_.set_values(m.data(), rows, cols, spec.version);
  shown_ = spec;

  ImGui::PushID(id);
  const float scale = ImGui::GetFontSize() / 16.0f;
  const float line = ImGui::GetTextLineHeight();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text, spec.dimmed ? 0.45f : 1.0f);
  const ImU32 muted = ImGui::GetColorU32(palette().muted_text);

  // Room for row labels at the left and column labels on top.
  float label_w = 0;
  for (int i = 0; i < std::min(rows, 64); ++i)
    label_w = std::max(label_w, ImGui::CalcTextSize(spec.row_label(i).c_str()).x);
  label_w = std::max(label_w, ImGui::CalcTextSize(spec.row_label(rows - 1).c_str()).x);  // the longest index
  label_w += 8 * scale;
  const float avail_w = ImGui::GetContentRegionAvail().x - label_w;
  // The legend is one line, "lo [colour bar] hi  ▨ masked", or two when that does not fit.
  const bool any_masked = any_masked_;
  const std::string lo_text = num(spec.lo), hi_text = num(spec.hi);
  const float gap = 6 * scale, min_bar = 60 * scale;
  const float lo_w = ImGui::CalcTextSize(lo_text.c_str()).x, hi_w = ImGui::CalcTextSize(hi_text.c_str()).x;
  const float masked_w = line + gap + ImGui::CalcTextSize(tr("masked (−∞)")).x;
  const float scale_w = lo_w + hi_w + 2 * gap + min_bar;
  const bool legend_wraps = any_masked && scale_w + 3 * gap + masked_w > avail_w;
  const float legend_h = line * (legend_wraps ? 2.8f : 1.6f);
  const float avail_h = std::max(spec.height - line * 1.4f - legend_h, 24.0f * scale);
  const float vw = view_.x1 - view_.x0, vh = view_.y1 - view_.y0;
  // Square cells, unless that leaves a very long or very wide matrix a sliver: then each side
  // may stretch to a third of the room.
  const float square = std::max(std::min({avail_w / vw, avail_h / vh, spec.max_cell * scale}), 0.02f);
  const float cw = std::max(square, std::min(avail_w / vw, avail_w / 3 / vw));
  const float ch = std::max(square, std::min(avail_h / vh, avail_h / 3 / vh));
  const ImVec2 size(std::floor(cw * vw), std::floor(ch * vh));

  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const ImVec2 origin(top_left.x + label_w, top_left.y + line * 1.4f);

  // The picture, painted by the colormap shader.
  const unsigned image = map_.paint(int(size.x), int(size.y), view_, heatmap_look(spec));
  ImGui::SetCursorScreenPos(origin);
  // Where a drag pans (zoomed in) or paints, a touch drags instead of scrolling the page.
  const bool zoomable = rows > 24 || cols > 24;
  const bool zoomed = vw < float(cols) || vh < float(rows);
  input::next_item(input::ItemKind::heatmap, spec.title ? spec.title : id, zoomed || spec.paints, zoomable);
  ImGui::InvisibleButton("plot", size);
  draw->AddImage(gl_texture(image), origin, ImVec2(origin.x + size.x, origin.y + size.y));
  const bool hovered = ImGui::IsItemHovered();

  // Pan and zoom through the texture (Ctrl+wheel or a pinch: input/scroll.h); double-click
  // shows the whole matrix again.
  ImGuiIO& io = ImGui::GetIO();
  if (const auto zoom = input::take_zoom(origin, ImVec2(origin.x + size.x, origin.y + size.y)); zoom && zoomable) {
    const float cx = view_.x0 + (zoom->at.x - origin.x) / cw;
    const float cy = view_.y0 + (zoom->at.y - origin.y) / ch;
    const float nw = std::clamp(vw * zoom->factor, std::min(8.0f, float(cols)), float(cols));
    const float nh = std::clamp(vh * zoom->factor, std::min(8.0f, float(rows)), float(rows));
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
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) view_ = {0, 0, float(cols), float(rows)};
  if (spec.focus_row >= 0) {  // pan the keyboard's cell into view
    const float fx = float(spec.focus_col), fy = float(spec.focus_row);
    const float dx = fx < view_.x0 ? fx - view_.x0 : fx + 1 > view_.x1 ? fx + 1 - view_.x1 : 0;
    const float dy = fy < view_.y0 ? fy - view_.y0 : fy + 1 > view_.y1 ? fy + 1 - view_.y1 : 0;
    view_ = {view_.x0 + dx, view_.y0 + dy, view_.x1 + dx, view_.y1 + dy};
  }
  const float sx = std::clamp(view_.x0, 0.0f, float(cols) - (view_.x1 - view_.x0)) - view_.x0;
  const float sy = std::clamp(view_.y0, 0.0f, float(rows) - (view_.y1 - view_.y0)) - view_.y0;
  view_ = {view_.x0 + sx, view_.y0 + sy, view_.x1 + sx, view_.y1 + sy};

  if (hovered) {
    hit.col = std::clamp(int(view_.x0 + (io.MousePos.x - origin.x) / cw), 0, cols - 1);
    hit.row = std::clamp(int(view_.y0 + (io.MousePos.y - origin.y) / ch), 0, rows - 1);
    hit.clicked = ImGui::IsItemDeactivated() &&
                  io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold;
  }

  // Cells on screen: [r0, r1) × [c0, c1), each `cell` pixels.
  const int r0 = int(view_.y0), r1 = std::min(rows, int(std::ceil(view_.y1)));
  const int c0 = int(view_.x0), c1 = std::min(cols, int(std::ceil(view_.x1)));
  auto cell_pos = [&](int r, int c) {
    return ImVec2(origin.x + (c - view_.x0) * cw, origin.y + (r - view_.y0) * ch);
  };
  draw->PushClipRect(top_left, ImVec2(origin.x + size.x, origin.y + size.y), true);
  // Axis labels: every one when they fit, otherwise every k-th.
  // The selected row's label always shows (the others make room for it), so the outlined row
  // can be found by name in a large matrix.
  const int row_every = std::max(1, int(std::ceil(line / ch)));
  const int chosen = spec.highlight_row;
  auto row_text = [&](int r, ImU32 colour) {
    const std::string label = spec.row_label(r);
    const ImVec2 p = cell_pos(r, c0);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    draw->AddText(ImVec2(origin.x - w - 6 * scale, p.y + (std::min(ch, line * 4) - line) * 0.5f), colour, label.c_str());
  };
  for (int r = r0; r < r1; r += row_every)
    if (std::abs(r - chosen) >= row_every) row_text(r, muted);
  if (chosen >= r0 && chosen < r1) row_text(chosen, ImGui::GetColorU32(palette().highlight));
  // The widest label, measured on a bounded sample (the first ones and the last, longest
  // index), so a frame's cost does not grow with the number of columns.
  float widest = ImGui::CalcTextSize(spec.col_label(c1 - 1).c_str()).x;
  for (int c = c0; c < std::min(c1, c0 + 64); ++c)
    widest = std::max(widest, ImGui::CalcTextSize(spec.col_label(c).c_str()).x);
  const int col_every = std::max(1, int(std::ceil((widest + 6 * scale) / cw)));
  for (int c = c0; c < c1; c += col_every) {
    const std::string label = spec.col_label(c);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const ImVec2 p = cell_pos(r0, c);
    draw->AddText(ImVec2(p.x + (cw - w) * 0.5f, top_left.y), muted, label.c_str());
  }
  draw->PopClipRect();

  draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  // Values in the cells when every number fits.
  ImGui::PushFont(fonts().small);
  const int max_chars = ch < line ? 0 : int((cw - 4 * scale) / ImGui::CalcTextSize("0").x);
  if (max_chars >= 3 && !spec.dimmed) {
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) {
        const std::string text = num_fit(m(r, c), max_chars);
        const ImVec2 t = ImGui::CalcTextSize(text.c_str());
        const ImVec2 p = cell_pos(r, c);
        draw->AddText(ImVec2(p.x + (cw - t.x) * 0.5f, p.y + (ch - t.y) * 0.5f), cell_text_colour(spec, m(r, c)),
                      text.c_str());
      }
  }
  ImGui::PopFont();
  // The selected query row, outlined.
  if (spec.highlight_row >= r0 && spec.highlight_row < r1) {
    const ImVec2 a = cell_pos(spec.highlight_row, c0);
    const float t = 2.5f * scale;
    draw->AddRect(ImVec2(origin.x + t * 0.5f, a.y + t * 0.5f),
                  ImVec2(origin.x + size.x - t * 0.5f, a.y + ch - t * 0.5f),
                  ImGui::GetColorU32(with_alpha(palette().highlight, spec.dimmed ? 0.5f : 1.0f)), 3 * scale, 0, t);
  }
  if (hit.row >= 0) {
    const ImVec2 a = cell_pos(hit.row, hit.col);
    draw->AddRect(a, ImVec2(a.x + cw, a.y + ch), ImGui::GetColorU32(ImGuiCol_Text), 0, 0, 1.5f * scale);
  }
  draw->PopClipRect();
  if (spec.focus_row >= 0) {
    const ImVec2 a = cell_pos(spec.focus_row, spec.focus_col);
    focus_ring(a, ImVec2(a.x + cw, a.y + ch));
  }

  // Legend: the colormap from lo to hi, and the masked pattern when the matrix has any.
  const float legend_y = origin.y + size.y + line * 0.45f;
  float bar_w = std::clamp(size.x - lo_w - hi_w - 2 * gap, min_bar, 160 * scale);
  if (any_masked && !legend_wraps) bar_w = std::max(min_bar, std::min(bar_w, avail_w - scale_w + min_bar - 3 * gap - masked_w));
  const float legend_w = lo_w + hi_w + 2 * gap + bar_w;
  {
    static attn::Matrix ramp;
    if (ramp.cols() != kLegendSteps) {
      ramp.resize(1, kLegendSteps);
      for (int i = 0; i < kLegendSteps; ++i) ramp(0, i) = float(i) / (kLegendSteps - 1);
    }
    legend_.set_values(ramp.data(), 1, kLegendSteps, 1);
    render::HeatmapLook look = heatmap_look(spec);
    look.lo = 0;
    look.hi = 1;
    const float bar_h = line * 0.55f;
    const unsigned bar = legend_.paint(int(bar_w), int(bar_h), {0, 0, float(kLegendSteps), 1}, look);
    draw->AddText(ImVec2(origin.x, legend_y), muted, lo_text.c_str());
    const ImVec2 a(origin.x + lo_w + gap, legend_y + (line - bar_h) * 0.5f);
    draw->AddImage(gl_texture(bar), a, ImVec2(a.x + bar_w, a.y + bar_h));
    draw->AddText(ImVec2(a.x + bar_w + gap, legend_y), muted, hi_text.c_str());
    if (any_masked) {
      const ImVec2 b = legend_wraps ? ImVec2(origin.x, legend_y + line * 1.25f)
                                    : ImVec2(origin.x + legend_w + 3 * gap, legend_y);
      const float box = line;
      const ImU32 hatch = ImGui::GetColorU32(ImVec4(palette().hatch[0], palette().hatch[1], palette().hatch[2], 1));
      draw->PushClipRect(b, ImVec2(b.x + box, b.y + box), true);
      for (float d = 0; d < box * 2; d += 6 * scale)  // the same diagonal stripes as the map
        draw->AddLine(ImVec2(b.x + d - box, b.y + box), ImVec2(b.x + d, b.y), hatch, 2 * scale);
      draw->PopClipRect();
      draw->AddRect(b, ImVec2(b.x + box, b.y + box), muted);
      draw->AddText(ImVec2(b.x + box + gap, b.y), text_col, tr("masked (−∞)"));
    }
  }
  ImGui::SetCursorScreenPos(top_left);
  ImGui::Dummy(ImVec2(label_w + std::max(size.x, legend_w), line * 1.4f + size.y + legend_h));
  ImGui::PopID();
  return hit;
}

}  // namespace ui
