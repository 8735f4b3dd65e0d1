// Fonts and colours of the interface: one light and one dark theme, scaled for HiDPI.
#pragma once

#include <imgui.h>

namespace ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* heading = nullptr;
  ImFont* mono = nullptr;   // aligned numbers in the arithmetic panel
  ImFont* small = nullptr;  // values inside heatmap cells
  // The cells' font's em, in pixels (CSS pixels × scale): what a browser calls its font size.
  // Dear ImGui sizes a font by its line (ascent to descent), about 1.16 em for DejaVu.
  float small_em = 0;
};
// The cells' values are written this large, in CSS pixels of em, or not at all (issue 29: a
// number is read at 12 px or more; heatmap_layout.h's value_chars decides what fits).
inline constexpr float kCellTextEm = 13;
Fonts& fonts();
// The body font's size at scale 1, in pixels: the unit the layout's lengths are written in.
inline constexpr float kBodyFontPx = 16;
// The interface's scale (1 on a standard screen, 2 on HiDPI): the font in use over its size at
// scale 1, by which every length written in unscaled pixels is multiplied.
inline float ui_scale() { return ImGui::GetFontSize() / kBodyFontPx; }

// Loads the embedded DejaVu fonts at `scale` × their base size, with the glyphs the lesson
// needs (Greek, √ ∞ · ≤ −, ᵀ, sub- and superscripts, arrows).
void load_fonts(float scale);

struct Palette {
  bool dark = false;
  ImVec4 accent, muted_text, card, card_border, highlight, note;
  float background[3], hatch[3];  // for the heatmap shader
};
const Palette& palette();

// Sets ImGui's style for a theme at a UI scale (1 on a standard screen, 2 on HiDPI); `touch`:
// a touch screen's larger targets.
void apply_theme(bool dark, float scale, bool touch);

// A tooltip (a cell's value and its arithmetic) whose lines wrap at the window's width, so that
// on a phone it stays on the screen rather than running past its edge. Its text goes between.
void begin_readout();
void end_readout();
// The same readout kept off a figure's matrix [away_min, away_max] (its labels and legend): below
// it, else above it, where the screen has room (else beside the pointer, as end_readout()), so
// that the row the reader points at, and the rows beside it, stay readable under the finger.
void end_readout(ImVec2 away_min, ImVec2 away_max);

}  // namespace ui
