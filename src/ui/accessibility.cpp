// [SECTION] focus zones and keys, [SECTION] the screen-reader table.
#include "accessibility.h"

#include <imgui.h>

#include <algorithm>

#include "explain.h"
#include "theme.h"

namespace ui {

// [SECTION] focus zones and keys -------------------------------------------------------------

bool tab(Ui& ui, bool back, bool wrap) {
  ui.show_focus = true;
  const Ui::Focus target = back ? Ui::Focus::stepper : Ui::Focus::cells;
  if (ui.focus == target && !wrap) return false;  // the last zone: focus leaves the canvas
  ui.focus = ui.focus == Ui::Focus::stepper ? Ui::Focus::cells : Ui::Focus::stepper;
  return true;
}

void cell_keys(const lab::Lab& lab, lab::State& next, Ui& ui, const std::vector<Ui::Key>& keys) {
  const lab::Step stage = lab.state().step;
  const attn::Matrix& m = stage_values(lab, stage);
  const int rows = int(m.rows()), cols = int(m.cols());
  for (Ui::Key key : keys) {
    switch (key) {
      case Ui::Key::left: ui.cell_col -= 1; break;
      case Ui::Key::right: ui.cell_col += 1; break;
      case Ui::Key::up: ui.cell_row -= 1; break;
      case Ui::Key::down: ui.cell_row += 1; break;
      case Ui::Key::enter: next.query = std::clamp(ui.cell_row, 0, rows - 1); break;
      case Ui::Key::escape: ui.focus = Ui::Focus::stepper; return;
      case Ui::Key::space: break;
    }
    ui.cell_row = std::clamp(ui.cell_row, 0, rows - 1);
    ui.cell_col = std::clamp(ui.cell_col, 0, cols - 1);
  }
  // Screen readers hear the cell and how it was computed.
  ui.announcement = lab.query_label(ui.cell_row) + ", " +
                    (stage == lab::Step::output ? "d" + std::to_string(ui.cell_col) : lab.key_label(ui.cell_col)) +
                    ": " + explain_cell(lab, stage, ui.cell_row, ui.cell_col);
}

std::pair<int, int> focused_cell(const lab::Lab& lab, const Ui& ui, lab::Step stage) {
  if (!ui.show_focus || ui.focus != Ui::Focus::cells || stage != lab.state().step) return {-1, -1};
  const attn::Matrix& m = stage_values(lab, stage);
  return {std::min(ui.cell_row, int(m.rows()) - 1), std::min(ui.cell_col, int(m.cols()) - 1)};
}

void focus_ring(ImVec2 min, ImVec2 max) {
  // Two rings, the accent outside the text colour, so it shows on any background and cell.
  const float scale = ImGui::GetFontSize() / 16.0f, pad = 3 * scale;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRect(ImVec2(min.x - pad, min.y - pad), ImVec2(max.x + pad, max.y + pad),
                ImGui::GetColorU32(palette().accent), 4 * scale, 0, 3 * scale);
  draw->AddRect(ImVec2(min.x - 1, min.y - 1), ImVec2(max.x + 1, max.y + 1), ImGui::GetColorU32(ImGuiCol_Text), 2 * scale,
                0, 1.5f * scale);
}

// [SECTION] the screen-reader table -----------------------------------------------------------

StageTable stage_table(const lab::Lab& lab) {
  const lab::State& s = lab.state();
  const attn::Matrix& m = stage_values(lab, s.step);
  StageTable t;
  t.caption = "Step " + std::to_string(int(s.step) + 1) + " of " + std::to_string(lab::kStepCount) + ", " +
              stage_title(s.step) + ": " + std::to_string(m.rows()) + " × " + std::to_string(m.cols()) +
              "; selected query row " + lab.query_label(s.query) + ".";
  for (int c = 0; c < m.cols(); ++c)
    t.columns.push_back(s.step == lab::Step::output ? "d" + std::to_string(c) : lab.key_label(c));
  for (int r = 0; r < m.rows(); ++r) {
    t.rows.push_back(lab.query_label(r));
    std::vector<std::string> row;
    for (int c = 0; c < m.cols(); ++c) row.push_back(num(m(r, c)));
    t.cells.push_back(std::move(row));
  }
  t.selected_row = s.query;
  return t;
}

bool stage_table_changed(const lab::Lab& lab, Ui& ui) {
  const lab::State& s = lab.state();
  // The numbers (version), the stage and the selected row: all the table shows.
  const std::uint64_t key = (lab.version() << 16) ^ (std::uint64_t(s.step) << 12) ^ std::uint64_t(s.query);
  if (key == ui.described) return false;
  ui.described = key;
  return true;
}

}  // namespace ui
