#include "combo.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "input/item_layout.h"

namespace ui {

bool begin_combo(const char* id, const char* shown) {
  input::next_item(input::ItemKind::combo, shown);
  // The choices are a frame tall each (below), taller than the text lines ImGui sizes its
  // popup by (8 of them: a phone showed 5½ of the 10 views): room for kShownChoices, within
  // the screen; a shorter list's popup still fits its choices.
  const ImGuiStyle& style = ImGui::GetStyle();
  constexpr int kShownChoices = 12;
  const float most = std::min(kShownChoices * ImGui::GetFrameHeight() + 2 * style.WindowPadding.y,
                              0.9f * ImGui::GetIO().DisplaySize.y);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(FLT_MAX, most));
  if (!ImGui::BeginCombo(id, shown)) return false;
  // A selectable's height is its text's plus the spacing between items: make it a frame's.
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
