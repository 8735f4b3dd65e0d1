// [SECTION] the five stages as heatmaps: scores, scale, mask, softmax, output (step 0, the
// input, is projections.cpp's).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <tuple>

#include "accessibility.h"
#include "explain.h"
#include "heatmap_layout.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

struct Stage {
  const attn::Matrix* values;
  render::Colormap map;  // weights: sequential over 0 … 1; the rest diverging around 0
};

Stage stage_data(const lab::Lab& lab, lab::Step step) {
  const attn::HeadTrace& h = lab.head();
  const render::Colormap diverging = render::Colormap::diverging;
  switch (step) {
    case lab::Step::input: return {&lab.q(), diverging};  // the step's result, Q
    case lab::Step::scores: return {&h.raw, diverging};
    case lab::Step::scale: return {&h.scaled, diverging};
    case lab::Step::mask: return {&h.masked, diverging};
    case lab::Step::softmax: return {&h.weights, render::Colormap::sequential};
    case lab::Step::output: return {&h.output, diverging};
  }
  return {&h.raw, diverging};
}

}  // namespace

const attn::Matrix& stage_values(const lab::Lab& lab, lab::Step step) { return *stage_data(lab, step).values; }

bool columns_are_keys(lab::Step step) { return step != lab::Step::input && step != lab::Step::output; }

const char* stage_title(lab::Step step) {
  static const char* titles[lab::kStepCount] = {N_("Q, K, V from X"), "S = QKᵀ", N_("S · scale"), N_("+ mask"),
                                                N_("A = softmax(row)"), "O = A·V"};
  return tr(titles[int(step)]);
}

namespace {

// Room a stage card's heatmap leaves around its cells: the row labels and the card's padding
// across, the title, the column labels and the colour legend down.
float card_extra_w() { return 80 * ui_scale(); }
float card_extra_h() { return 4.8f * ImGui::GetTextLineHeightWithSpacing(); }

// The side of a stage's cells in a card of `size` (at most the heatmap's 56-unit cap).
float stage_cell(const lab::State& s, ImVec2 size) {
  const float cols = float(std::max(s.nk, s.dv));
  return std::min({(size.x - card_extra_w()) / cols, (size.y - card_extra_h()) / float(s.nq), kMaxCell * ui_scale()});
}

}  // namespace

float stage_card_height(const lab::Lab& lab, float width) {
  const lab::State& s = lab.state();
  const float scale = ui_scale();
  const float cell = stage_cell(s, ImVec2(width, 1e9f));
  return std::clamp(cell * float(s.nq) + card_extra_h(), 150 * scale, 560 * scale);
}

void stage_card(const lab::Lab& lab, lab::State& next, Memory& ui, lab::Step step, ImVec2 size) {
  const lab::State& s = lab.state();
  const float scale = ui_scale();
  const int i = int(step);
  // The current stage catches the eye through its accent border; later stages are dimmed
  // until reached. A figure shows the stages its author named: none of them is dimmed.
  const bool current = step == s.step, reached = i <= int(s.step) || s.is_figure();
  ImGui::PushStyleColor(ImGuiCol_Border, current ? palette().accent : palette().card_border);
  ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, current ? 2.0f * scale : 1.0f * scale);
  ImGui::BeginChild(lab::step_name(step), size, true,  // an id that no language changes
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  if (!reached) ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  heading(std::to_string(i) + "  " + stage_title(step));
  if (!reached) ImGui::PopStyleColor();
  if (ImGui::IsItemClicked()) next.step = step;
  if (i >= first_hidden_step(lab)) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
    ImGui::TextWrapped("%s", tr(kHiddenUntilAnswered));
    ImGui::PopStyleColor();
  } else {
    const Stage st = stage_data(lab, step);
    HeatmapSpec spec;
    spec.values = st.values;
    spec.version = lab.version();
    spec.map = st.map;
    spec.row_label = [&](int r) { return lab.query_label(r); };
    spec.col_label = columns_are_keys(step) ? std::function<std::string(int)>([&](int c) { return lab.key_label(c); })
                                         : [](int c) { return "d" + std::to_string(c); };
    spec.highlight_row = s.query;
    spec.dimmed = !reached;
    spec.paints = step == lab::Step::mask && ui.paint_mask;
    spec.title = stage_title(step);
    spec.height = ImGui::GetContentRegionAvail().y;
    std::tie(spec.focus_row, spec.focus_col) = focused_cell(lab, ui, step);
    const HeatmapHit hit = ui.stage_views[i].draw("map", spec);
    if (hit.row >= 0) {
      begin_readout();
      ImGui::PushFont(fonts().mono);
      ImGui::TextUnformatted(explain_cell(lab, step, hit.row, hit.col).c_str());
      ImGui::PopFont();
      end_readout(hit.min, hit.max);
    }
    if (hit.clicked) {
      next.query = hit.row;
      next.step = step;
      if (step == lab::Step::mask && ui.paint_mask) {
        // Painting toggles the clicked cell in the custom mask.
        const std::pair<int, int> cell{hit.row, hit.col};
        auto it = std::find(next.blocked.begin(), next.blocked.end(), cell);
        if (it == next.blocked.end()) next.blocked.push_back(cell);
        else next.blocked.erase(it);
      }
    }
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

StageGrid stage_grid(const lab::Lab& lab, float width, float height) {
  const float scale = ui_scale();
  // The five cards of steps 1 to 5 (step 0 has a screen of its own: projections()), and for
  // loaded data with several heads a sixth, every head's weights.
  const int cards = lab::kStepCount - int(lab::Step::scores) + (lab::loaded_head_count(lab.state()) > 1 ? 1 : 0);
  const auto grid = [cards](int per_row) { return StageGrid{per_row, (cards + per_row - 1) / per_row}; };
  // In a column: three cards per row on a wide screen, two or one when narrow.
  const int least = width > 900 * scale ? 3 : width > 520 * scale ? 2 : 1;
  if (height <= 0) return grid(least);
  // In a fixed height (a laptop's walkthrough): all on screen, in as many rows or fewer, the
  // matrices' cells as large as the cards' shape allows.
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  StageGrid best = grid(least);
  float best_cell = 0;
  for (int per_row = least; per_row <= 3; ++per_row) {
    const StageGrid g = grid(per_row);
    const ImVec2 card((width - gap * float(per_row - 1)) / float(per_row), (height - gap * float(g.rows - 1)) / float(g.rows));
    const float cell = stage_cell(lab.state(), card);
    if (cell > best_cell) best = g, best_cell = cell;
  }
  return best;
}

void stages(const lab::Lab& lab, lab::State& next, Memory& ui, float height, const ColumnExtras& extras) {
  const lab::State& s = lab.state();
  const float scale = ui_scale();
  const float avail = ImGui::GetContentRegionAvail().x;
  const auto [per_row, rows] = stage_grid(lab, avail, height);
  const bool heads = lab::loaded_head_count(s) > 1;
  const int first = int(lab::Step::scores), cards = lab::kStepCount - first + (heads ? 1 : 0);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float card_w = (avail - gap * (per_row - 1)) / per_row;
  // In a scrolling column each card is as tall as its matrix needs at the card's width, so the
  // heatmap uses that width; in a window's fixed height the cards share it, all on screen.
  const float card_h = height > 0 ? (height - gap * (rows - 1)) / rows : stage_card_height(lab, card_w);
  const int current_row = (std::max(int(s.step), first) - first) / per_row;
  const auto under = [&](int row) {
    if (!extras.under_current || row != current_row) return;
    ImGui::Spacing();
    extras.under_current();
    ImGui::Spacing();
  };
  for (int i = first; i < lab::kStepCount; ++i) {
    const int row = (i - first) / per_row;
    if ((i - first) % per_row) {
      ImGui::SameLine(0, gap);
    } else if (extras.bring_into_view && row == current_row && height <= 0) {
      // The current row at the column's top (the first row: the column's own top, its formula).
      if (row == 0) ImGui::SetScrollY(0.0f), ui.requests.emplace_back(request::DrawAgain{});
      else scroll_to_here(ui);
    }
    const ImVec2 card_at = ImGui::GetCursorScreenPos();
    stage_card(lab, next, ui, lab::Step(i), ImVec2(card_w, card_h));
    if (extras.bring_into_view && row == current_row && height > 0) {
      // Side by side, the other rows stay where the reader had them: as little scrolling as
      // shows the whole row (none when it is on screen already).
      ImGui::ScrollToBringRectIntoView(ImGui::GetCurrentWindow(), ImRect(card_at, ImVec2(card_at.x + card_w, card_at.y + card_h)));
      ui.requests.emplace_back(request::DrawAgain{});
    }
    // The explanation right under the current step's row, where the reader's eyes are.
    if ((i - first) % per_row == per_row - 1 || i - first == cards - 1) under(row);
  }
  if (heads) {
    if ((cards - 1) % per_row) ImGui::SameLine(0, gap);
    ImGui::PushStyleColor(ImGuiCol_Border, palette().card_border);
    ImGui::BeginChild("heads", ImVec2(card_w, card_h), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    heads_card(lab, next, ui);
    ImGui::EndChild();
    ImGui::PopStyleColor();
    under((cards - 1) / per_row);
  }
}

void compare_scales(const lab::Lab& lab, lab::State& next, Memory& ui, float height) {
  const lab::State& s = lab.state();
  const float scale = ui_scale();
  const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
  const int per_row = avail > 600 * scale ? 3 : 1;
  const float card_w = (avail - gap * (per_row - 1)) / per_row;
  const float note_h = ImGui::GetTextLineHeightWithSpacing() * 3;
  const float card_h = per_row == 3 ? std::min(height - note_h, card_w * 1.25f)
                                    : std::max((height - note_h) / 3 - gap, 200 * scale);
  for (int c = 0; c < 3; ++c) {
    const NamedScale& named = kComparedScales[c];
    if (c % per_row) ImGui::SameLine(0, gap);
    const bool current = named.choice == s.scale;
    ImGui::PushStyleColor(ImGuiCol_Border, current ? palette().accent : palette().card_border);
    ImGui::BeginChild(named.name, ImVec2(card_w, card_h), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(fonts().heading);
    ImGui::Text(tr("scale %s"), tr(named.name));
    ImGui::PopFont();
    ImGui::TextColored(palette().muted_text, "= %s: softmax(S · %s)", num(lab.scale_of(named.choice)).c_str(),
                       num(lab.scale_of(named.choice)).c_str());
    HeatmapSpec spec;
    spec.values = &lab.weights_with_scale(lab.scale_of(named.choice));
    spec.version = lab.version();
    spec.row_label = [&](int r) { return lab.query_label(r); };
    spec.col_label = [&](int k) { return lab.key_label(k); };
    spec.highlight_row = s.query;
    spec.height = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing();
    const HeatmapHit hit = ui.compare_views[c].draw("weights", spec);
    if (hit.clicked) next.query = hit.row;
    if (ImGui::Button(current ? tr("in use") : tr("use this scale"))) next.scale = named.choice;
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  ImGui::TextWrapped("%s", tr("Without scaling, scores grow with d_k and the softmax collapses onto one key; dividing by d_k "
                              "shrinks them too far and flattens it."));
  ImGui::PopStyleColor();
}

}  // namespace ui
