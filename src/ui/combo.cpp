#include "combo.h"

#include <imgui.h>

#include <algorithm>

#include "input/item_layout.h"

namespace ui {

bool begin_combo(const char* id, const char* shown) {
  input::next_item(input::ItemKind::combo, shown);
  if (!ImGui::BeginCombo(id, shown)) return false;
  // A selectable's height is its text's plus the spacing between items: make it a frame's.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float spacing = std::max(style.ItemSpacing.y, ImGui::GetFrameHeight() - ImGui::GetTextLineHeight());
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(style.ItemSpacing.x, spacing));
  return true;
}

void end_combo() {
  ImGui::PopStyleVar();
  ImGui::EndCombo();
}

bool combo(const char* id, int* current, const char* const items[], int count) {
  if (!begin_combo(id, items[*current])) return false;
  bool changed = false;
  for (int i = 0; i < count; ++i) {
    if (ImGui::Selectable(items[i], i == *current) && i != *current) {
      *current = i;
      changed = true;
    }
    if (i == *current) ImGui::SetItemDefaultFocus();
  }
  end_combo();
  return changed;
}

}  // namespace ui
