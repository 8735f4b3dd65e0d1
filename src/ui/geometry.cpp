// [SECTION] the dot product as geometry, for d_k = 2: every query and key is an arrow in the
// plane, q·k = |q| |k| cos θ, and the selected query's line carries each key's projection
// |k| cos θ (the score divided by |q|). Dragging an arrow's tip edits that row of Q or K.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "explain.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"
#include "input/item_layout.h"

namespace ui {
namespace {

// Arrows drawn at most per matrix: the plot is for reading a few vectors, not 2048.
constexpr int kMaxArrows = 12;

struct Arrow {
  int matrix;  // 0: a query (a row of Q), 1: a key (a row of K)
  int row;
  ImVec2 value;  // the row's two coordinates
};

ImU32 colour(const ImVec4& c, float alpha = 1) { return ImGui::GetColorU32(ImVec4(c.x, c.y, c.z, c.w * alpha)); }

void arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 col, float thickness) {
  draw->AddLine(from, to, col, thickness);
  const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
  if (length < 1) return;
  const float ux = dx / length, uy = dy / length, head = 4 * thickness;
  draw->AddTriangleFilled(to, ImVec2(to.x - ux * head - uy * head * 0.5f, to.y - uy * head + ux * head * 0.5f),
                          ImVec2(to.x - ux * head + uy * head * 0.5f, to.y - uy * head - ux * head * 0.5f), col);
}

// The rows drawn: the selected query, a few other queries, and the first keys.
std::vector<Arrow> arrows(const lab::Lab& lab) {
  const lab::State& s = lab.state();
  std::vector<Arrow> out;
  auto add = [&](int matrix, int row) {
    const attn::Matrix& m = matrix == 0 ? lab.q() : lab.k();
    out.push_back({matrix, row, ImVec2(m(row, 0), m(row, 1))});
  };
  for (int j = 0; j < std::min(s.nk, kMaxArrows); ++j) add(1, j);
  for (int i = 0; i < std::min(s.nq, kMaxArrows); ++i)
    if (i != s.query) add(0, i);
  add(0, s.query);  // drawn last, on top
  return out;
}

}  // namespace

void geometry(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  if (s.dk != 2) return;
  const float scale = ui_scale();
  const std::vector<Arrow> shown = arrows(lab);
  // Self-attention without projections has one matrix, Q = K = V = X: both kinds of arrow
  // edit it. With projections, Q and K are products and are edited at step 0 instead.
  const bool draggable = !s.projected();
  Memory::Drag& drag = ui.geometry_drag;
  if (drag.row < 0) {
    float range = 1;
    for (const Arrow& a : shown) range = std::max({range, std::fabs(a.value.x), std::fabs(a.value.y)});
    drag.range = range * 1.2f;
  }
  const float side = std::min(ImGui::GetContentRegionAvail().x, 340 * scale);  // square; the panel scrolls
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), size(side, side);
  const ImVec2 centre(p0.x + side / 2, p0.y + side / 2);
  const float unit = side / 2 / drag.range;  // pixels per unit
  auto to_screen = [&](ImVec2 v) { return ImVec2(centre.x + v.x * unit, centre.y - v.y * unit); };
  auto to_value = [&](ImVec2 p) { return ImVec2((p.x - centre.x) / unit, (centre.y - p.y) / unit); };

  // The plane scrolls under a swipe (on a phone it fills the column's width); only its arrows'
  // tips take a finger's drag (describe_grab_spots below).
  input::next_item(input::ItemKind::plot, "geometry");
  ImGui::InvisibleButton("geometry", size);
  const ImGuiID plane = ImGui::GetItemID();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  const ImVec2 p1(p0.x + side, p0.y + side);
  draw->PushClipRect(p0, p1, true);  // arrows dragged out of the square are cut at its edge
  draw->AddRect(p0, p1, colour(pal.card_border));
  draw->AddLine(ImVec2(p0.x, centre.y), ImVec2(p1.x, centre.y), colour(pal.muted_text, 0.5f));
  draw->AddLine(ImVec2(centre.x, p0.y), ImVec2(centre.x, p1.y), colour(pal.muted_text, 0.5f));
  const std::string axes = i18n::format(tr("d0 →  d1 ↑  edges ±%s"), num(std::round(drag.range * 10) / 10).c_str());
  draw->AddText(ImVec2(p0.x + 4 * scale, p0.y + 2 * scale), colour(pal.muted_text), axes.c_str());

  // The selected query's direction, and each key's projection onto it: the foot of the
  // perpendicular from the key's tip, at signed distance |k| cos θ along q.
  const ImVec2 q(lab.q()(s.query, 0), lab.q()(s.query, 1));
  const float q_norm = std::sqrt(q.x * q.x + q.y * q.y);
  if (q_norm > 0) {
    const ImVec2 u(q.x / q_norm, q.y / q_norm);
    draw->AddLine(to_screen(ImVec2(-u.x * drag.range * 2, -u.y * drag.range * 2)),
                  to_screen(ImVec2(u.x * drag.range * 2, u.y * drag.range * 2)), colour(pal.accent, 0.25f), 1 * scale);
    for (const Arrow& a : shown) {
      if (a.matrix != 1) continue;
      const float along = a.value.x * u.x + a.value.y * u.y;
      const ImVec2 foot = to_screen(ImVec2(u.x * along, u.y * along));
      draw->AddLine(to_screen(a.value), foot, colour(pal.highlight, 0.6f), 1 * scale);
      draw->AddCircleFilled(foot, 3 * scale, colour(pal.highlight));
    }
  }
  for (const Arrow& a : shown) {
    const bool selected = a.matrix == 0 && a.row == s.query;
    const ImU32 col = a.matrix == 1 ? colour(pal.highlight) : colour(pal.accent, selected ? 1.0f : 0.45f);
    const ImVec2 tip = to_screen(a.value);
    arrow(draw, centre, tip, col, (selected ? 2.5f : 1.8f) * scale);
    const std::string label = (a.matrix == 0 ? "q" : "k") + std::to_string(a.row);
    const float below = a.matrix == 1 ? 2 * scale : -ImGui::GetTextLineHeight() - 2 * scale;
    draw->AddText(ImVec2(tip.x + 4 * scale, tip.y + below), col, label.c_str());
  }
  draw->PopClipRect();

  // Dragging: the nearest tip under the pointer when the button goes down, then that row
  // follows the pointer (rounded to 0.01, as typed values are) until the button is released.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Arrow* closest = nullptr;
  const float best_reach = (ui.touch_screen ? 22 : 12) * scale;  // how near a tip a press takes it (a finger is broader)
  float best = best_reach;
  for (const Arrow& a : shown) {
    const ImVec2 tip = to_screen(a.value);
    const float d = std::hypot(tip.x - mouse.x, tip.y - mouse.y);
    if (d <= best) best = d, closest = &a;
  }
  if (draggable && (closest || drag.row >= 0) && ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (draggable && ImGui::IsItemActivated() && closest) drag.matrix = closest->matrix, drag.row = closest->row;
  if (drag.row >= 0 && ImGui::IsItemActive()) {
    const ImVec2 v = to_value(mouse);
    // Q = K = V in self-attention without projections: one matrix, in q.
    const bool key = drag.matrix == 1 && s.kind == lab::Attention::cross;
    std::vector<float> values = key ? lab.flat_k() : lab.flat_q();
    const int rows = key ? s.nk : s.nq;
    const std::size_t at = (std::size_t(s.batch) * rows + drag.row) * 2;
    values[at] = std::round(v.x * 100) / 100;
    values[at + 1] = std::round(v.y * 100) / 100;
    (key ? next.k : next.q) = std::move(values);
    if (drag.matrix == 0) next.query = drag.row;
  } else {
    drag.row = -1;
  }
  if (ImGui::IsItemHovered() && closest && drag.row < 0) {
    begin_readout();
    ImGui::PushFont(fonts().mono);
    const attn::Matrix& m = closest->matrix == 0 ? lab.q() : lab.k();
    ImGui::Text(draggable ? tr("%s%d = [%s, %s]  (drag to move)") : "%s%d = [%s, %s]", closest->matrix == 0 ? "q" : "k",
                closest->row, num(m(closest->row, 0)).c_str(), num(m(closest->row, 1)).c_str());
    ImGui::PopFont();
    end_readout();
  }
  // Only the tips take a finger's drag; the rest of the plane scrolls under a swipe.
  if (draggable) {
    std::vector<ImVec2> tips;
    for (const Arrow& a : shown) tips.push_back(to_screen(a.value));
    input::describe_grab_spots(plane, std::move(tips), best_reach);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, pal.muted_text);
  const char* hint = !draggable ? tr("Q and K are X·W_Q and X·W_K here: change them at step 0, or set proj=0 "
                                     "(Q = K = V = X) to drag the arrows.")
                     : s.kind == lab::Attention::cross ? tr("Drag an arrow's tip to change that row of Q or K.")
                                                  : tr("Drag an arrow's tip to change that row of Q = K = V.");
  ImGui::TextWrapped("%s", hint);
  ImGui::PopStyleColor();
}

}  // namespace ui
