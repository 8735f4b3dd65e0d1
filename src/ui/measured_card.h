// A card that sizes itself to its content, for layouts where nothing scrolls inside the page's
// one column (figure mode; a narrow window's explanation under its stage).
#pragma once

#include <imgui.h>

#include <cmath>
#include <string>

#include "ui.h"

namespace ui {

// Drawn in a child of the height its content needed last frame (ImGui 1.86's children do not
// size themselves), kept in ui.part_heights under `id`; when that changes, another frame follows.
template <class Draw>
void measured_card(Memory& ui, const std::string& id, float width, float height, bool border, Draw draw) {
  // A card scrolled out of view lays nothing out: its last height stands.
  const bool shown = ImGui::BeginChild(id.c_str(), ImVec2(width, height), border,
                                       ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                           (border ? ImGuiWindowFlags_AlwaysUseWindowPadding : 0));
  draw();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float needed = ImGui::GetCursorPosY() - style.ItemSpacing.y + (border ? style.WindowPadding.y : 0);
  ImGui::EndChild();
  if (!shown) return;
  float& known = ui.part_heights[id];
  if (std::fabs(known - needed) > 0.5f) {
    known = needed;
    ui.requests.emplace_back(request::DrawAgain{});
  }
}

// The height `id`'s card needed when last drawn, or `guess` before it has been.
inline float measured_height(const Memory& ui, const std::string& id, float guess) {
  const auto known = ui.part_heights.find(id);
  return known != ui.part_heights.end() ? known->second : guess;
}

}  // namespace ui
