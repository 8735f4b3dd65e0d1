// Drop-downs as the interface draws them: known to layout() by the choice they show, and with
// choices as tall as a frame, so that on a touch screen each is a finger's target (40 CSS
// pixels) and not a line of text.
#pragma once

namespace ui {

// As ImGui::BeginCombo / EndCombo (end_combo() only when begin_combo() returned true).
bool begin_combo(const char* id, const char* shown);
void end_combo();
// As ImGui::Combo: `items` as shown; true when the choice changed.
bool combo(const char* id, int* current, const char* const items[], int count);

}  // namespace ui
