#include "scroll.h"

#include <imgui_internal.h>

#include <cfloat>
#include <utility>

#include "item_layout.h"

namespace ui::input {
namespace {

// The window drawn topmost at `p` in the last frame, as ImGui finds the hovered one.
ImGuiWindow* window_at(ImVec2 p) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = g.Windows.Size - 1; i >= 0; --i) {
    ImGuiWindow* w = g.Windows[i];
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_NoMouseInputs)) continue;
    const ImRect& r = w->OuterRectClipped;
    if (p.x >= r.Min.x && p.x < r.Max.x && p.y >= r.Min.y && p.y < r.Max.y) return w;
  }
  return nullptr;
}

// Moves `w` by up to `d` along `axis` from where it is going (several events may come
// between two frames); returns how far.
float scroll_window(ImGuiWindow* w, int axis, float d) {
  if (d == 0 || (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) || w->ScrollMax[axis] <= 0) return 0;
  const float from = w->ScrollTarget[axis] != FLT_MAX ? w->ScrollTarget[axis] : w->Scroll[axis];
  const float to = ImClamp(from + d, 0.0f, w->ScrollMax[axis]);
  if (to == from) return 0;
  if (axis == ImGuiAxis_X) ImGui::SetScrollX(w, to);
  else ImGui::SetScrollY(w, to);
  return to - from;
}

std::optional<Zoom> g_zoom;

}  // namespace

ImVec2 scroll_at(ImVec2 at, ImVec2 delta) {
  ImVec2 moved(0, 0);
  // A child region first, then the regions holding it (scroll chaining, as on a web page); a
  // popup stops the chain (its parent is the window that opened it, not one around it).
  for (ImGuiWindow* w = window_at(at); w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    moved.x += scroll_window(w, ImGuiAxis_X, delta.x - moved.x);
    moved.y += scroll_window(w, ImGuiAxis_Y, delta.y - moved.y);
  }
  return moved;
}

bool zoom_at(ImVec2 at, float factor, ImVec2 pan) {
  const Item* item = item_at(at);
  if (!item || !item->zooms) return false;
  // Several events between two frames add up, about the latest point.
  if (g_zoom) g_zoom = Zoom{at, g_zoom->factor * factor, ImVec2(g_zoom->pan.x + pan.x, g_zoom->pan.y + pan.y)};
  else g_zoom = Zoom{at, factor, pan};
  return true;
}

std::optional<Zoom> take_zoom(ImVec2 min, ImVec2 max) {
  if (!g_zoom || g_zoom->at.x < min.x || g_zoom->at.x >= max.x || g_zoom->at.y < min.y || g_zoom->at.y >= max.y)
    return std::nullopt;
  return std::exchange(g_zoom, std::nullopt);
}

}  // namespace ui::input
