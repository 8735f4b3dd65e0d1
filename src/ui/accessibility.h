// Keyboard and screen-reader access to the walkthrough.
//
// Keyboard: the canvas has two focus zones. The stepper (where focus starts): ←/→ change the
// step, ↑/↓ the query row, Space plays or pauses. Tab moves into the current stage's heatmap,
// where the arrows move a focused cell, Enter selects its query row and Escape (or Shift+Tab)
// goes back. Tab from the heatmap (Shift+Tab from the stepper) leaves the canvas in the
// browser, so the page's other controls stay reachable. Focus rings show after keyboard use
// only, as :focus-visible does.
//
// Screen readers: the current stage's matrix around the selected query row as a table (with row
// and column headers; bounded, so its size does not grow with n) and a
// one-line announcement of each focused cell, which the page mirrors into HTML.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

#include "lab.h"
#include "ui.h"

namespace ui {

// Tab (or Shift+Tab when `back`): true if focus moved between the zones, false if it leaves
// the canvas (`wrap` keeps it inside instead, for the desktop window).
bool tab(Memory& ui, bool back, bool wrap);
// One key pressed while the heatmap zone has focus.
void cell_key(const lab::Lab& lab, lab::State& next, Memory& ui, Memory::Key key);
// The cell the heatmap zone has focus on for this stage, or {-1, -1}.
std::pair<int, int> focused_cell(const lab::Lab& lab, const Memory& ui, lab::Step stage);
// A focus ring around a rectangle (the current step chip, a heatmap).
void focus_ring(ImVec2 min, ImVec2 max);

struct StageTable {
  std::string caption;
  std::vector<std::string> columns;  // column headers (keys, or d0… for the output)
  std::vector<std::string> rows;     // row headers (queries)
  std::vector<std::vector<std::string>> cells;
  int selected_row = -1;  // index into rows
};
// The current stage's matrix as the interface prints its numbers: the selected query row and
// a bounded window of rows and columns around it (the caption says which).
StageTable stage_table(const lab::Lab& lab, const Memory& ui);
// True once after each change of what stage_table() shows.
bool stage_table_changed(const lab::Lab& lab, Memory& ui);

}  // namespace ui
