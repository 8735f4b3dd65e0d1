// [SECTION] focus zones and keys, [SECTION] the screen-reader table.
#include "accessibility.h"

#include <imgui.h>

#include <algorithm>

#include "explain.h"
#include "theme.h"

namespace ui {

// [SECTION] focus zones and keys -------------------------------------------------------------

bool tab(Memory& ui, bool back, bool wrap) {
  ui.show_focus = true;
  const Memory::Focus target = back ? Memory::Focus::stepper : Memory::Focus::cells;
  if (ui.focus == target && !wrap) return false;  // the last zone: focus leaves the canvas
  ui.focus = ui.focus == Memory::Focus::stepper ? Memory::Focus::cells : Memory::Focus::stepper;
  return true;
}

void cell_key(const lab::Lab& lab, lab::State& next, Memory& ui, Memory::Key key) {
  const lab::Step stage = lab.state().step;
  const attn::Matrix& m = stage_values(lab, stage);
  const int rows = int(m.rows()), cols = int(m.cols());
  switch (key) {
    case Memory::Key::left: ui.cell_col -= 1; break;
    case Memory::Key::right: ui.cell_col += 1; break;
    case Memory::Key::up: ui.cell_row -= 1; break;
    case Memory::Key::down: ui.cell_row += 1; break;
    case Memory::Key::enter: next.query = std::clamp(ui.cell_row, 0, rows - 1); break;
    case Memory::Key::escape: ui.focus = Memory::Focus::stepper; return;
    case Memory::Key::space:
    case Memory::Key::undo:  // the history's (keyboard() in header.cpp)
    case Memory::Key::redo: break;
  }
  ui.cell_row = std::clamp(ui.cell_row, 0, rows - 1);
  ui.cell_col = std::clamp(ui.cell_col, 0, cols - 1);
  // Screen readers hear the cell and how it was computed.
  ui.announcement = lab.query_label(ui.cell_row) + ", " +
                    (columns_are_keys(stage) ? lab.key_label(ui.cell_col) : "d" + std::to_string(ui.cell_col)) +
                    ": " + explain_cell(lab, stage, ui.cell_row, ui.cell_col);
}

std::pair<int, int> focused_cell(const lab::Lab& lab, const Memory& ui, lab::Step stage) {
  if (!ui.show_focus || ui.focus != Memory::Focus::cells || stage != lab.state().step) return {-1, -1};
  const attn::Matrix& m = stage_values(lab, stage);
  return {std::min(ui.cell_row, int(m.rows()) - 1), std::min(ui.cell_col, int(m.cols()) - 1)};
}

void focus_ring(ImVec2 min, ImVec2 max) {
  // Two rings, the accent outside the text colour, so it shows on any background and cell.
  const float scale = ui_scale(), pad = 3 * scale;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRect(ImVec2(min.x - pad, min.y - pad), ImVec2(max.x + pad, max.y + pad),
                ImGui::GetColorU32(palette().accent), 4 * scale, 0, 3 * scale);
  draw->AddRect(ImVec2(min.x - 1, min.y - 1), ImVec2(max.x + 1, max.y + 1), ImGui::GetColorU32(ImGuiCol_Text), 2 * scale,
                0, 1.5f * scale);
}

// [SECTION] the screen-reader table -----------------------------------------------------------

namespace {

// The table holds the selected query row and a bounded window around it, so what reaches the
// page (strings, JSON, DOM cells) stays the same size at n = 2048 as at n = 9.
constexpr int kTableRowsAround = 4;  // rows each side of the selected query
constexpr int kTableCols = 32;       // columns at most

// The first row and column the table shows: rows centred on the selected query; columns on
// the keyboard's focused cell when the heatmap has focus, else on the query (the diagonal
// of a self-attention map, where a causal row ends).
std::pair<int, int> table_window(const lab::Lab& lab, const Memory& ui) {
  const lab::State& s = lab.state();
  const attn::Matrix& m = stage_values(lab, s.step);
  const int rows = int(m.rows()), cols = int(m.cols());
  const int r0 = std::clamp(s.query - kTableRowsAround, 0, std::max(0, rows - (2 * kTableRowsAround + 1)));
  const int centre = ui.focus == Memory::Focus::cells ? ui.cell_col : columns_are_keys(s.step) ? s.query : 0;
  const int c0 = std::clamp(centre - kTableCols / 2, 0, std::max(0, cols - kTableCols));
  return {r0, c0};
}

std::string range(const std::string& first, const std::string& last) {
  return first == last ? first : first + "–" + last;
}

}  // namespace

StageTable stage_table(const lab::Lab& lab, const Memory& ui) {
  const lab::State& s = lab.state();
  const attn::Matrix& m = stage_values(lab, s.step);
  const auto [r0, c0] = table_window(lab, ui);
  const int r1 = std::min(int(m.rows()), r0 + 2 * kTableRowsAround + 1), c1 = std::min(int(m.cols()), c0 + kTableCols);
  auto col_label = [&](int c) { return columns_are_keys(s.step) ? lab.key_label(c) : "d" + std::to_string(c); };
  StageTable t;
  if (int(s.step) >= first_hidden_step(lab)) {  // practice: the numbers are the question's answer
    t.caption = i18n::format(tr("Step %d, %s: %s"), int(s.step), stage_title(s.step), tr(kHiddenUntilAnswered));
    return t;
  }
  // Steps are numbered from 0 (the input) to 5, as on screen.
  t.caption = i18n::format(tr("Step %d of %d, %s: %d × %d; selected query row %s."), int(s.step), lab::kStepCount - 1,
                           stage_title(s.step), int(m.rows()), int(m.cols()), lab.query_label(s.query).c_str());
  if (r1 - r0 < m.rows() || c1 - c0 < m.cols())
    t.caption += i18n::format(tr(" Shown: rows %s, columns %s; choose another query (↑/↓) or move the focused cell to "
                                 "read the rest."),
                              range(lab.query_label(r0), lab.query_label(r1 - 1)).c_str(),
                              range(col_label(c0), col_label(c1 - 1)).c_str());
  for (int c = c0; c < c1; ++c) t.columns.push_back(col_label(c));
  for (int r = r0; r < r1; ++r) {
    t.rows.push_back(lab.query_label(r));
    std::vector<std::string> row;
    for (int c = c0; c < c1; ++c) row.push_back(num(m(r, c)));
    t.cells.push_back(std::move(row));
  }
  t.selected_row = s.query - r0;
  return t;
}

bool stage_table_changed(const lab::Lab& lab, Memory& ui) {
  const lab::State& s = lab.state();
  // The numbers (version), the stage, the selected row and the window: all the table shows.
  const std::uint64_t c0 = std::uint64_t(table_window(lab, ui).second);
  const std::uint64_t key = (lab.version() << 40) ^ (c0 << 28) ^ (std::uint64_t(s.step) << 24) ^ std::uint64_t(s.query) ^
                            (std::uint64_t(first_hidden_step(lab)) << 21);
  if (key == ui.described) return false;
  ui.described = key;
  return true;
}

}  // namespace ui
