// [SECTION] loaded data with several heads: every head's weights at once, as a grid of small
// maps beside the five stages (a row per layer where several are given), and the head the
// walkthrough shows; a click on a map (or the selector) shows that head.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "combo.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"
#include "input/item_layout.h"

namespace ui {

void heads_card(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  const int count = lab::loaded_head_count(s), layers = lab::loaded_layer_count(s);
  const std::vector<lab::LoadedHead>& heads = *s.loaded_heads;
  // With several layers, each layer is a row of its heads under its name.
  auto name = [&](int i) {
    const lab::LoadedHead& h = heads[std::size_t(i)];
    return layers > 1 ? i18n::format(tr("layer %d, head %d"), h.layer, h.head) : i18n::format(tr("head %d"), h.head);
  };
  const float scale = ui_scale();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(tr("All heads"));
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 170 * scale));
  const std::string shown = layers > 1 ? name(s.head) : i18n::format(tr("head %d of %d"), s.head, count);
  if (begin_combo("##head", shown.c_str())) {
    for (int i = 0; i < count; ++i)
      if (ImGui::Selectable(name(i).c_str(), i == s.head)) lab::show_head(next, i);
    end_combo();
  }
  const std::vector<attn::Matrix>& weights = lab.head_weights();
  if (weights.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
    ImGui::TextWrapped("%s", tr("Too large to compute every head at once: the selector shows one at a time."));
    ImGui::PopStyleColor();
    return;
  }
  // As many columns as keep the maps square and as large as the card allows (one layer), or
  // a layer's heads per row.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x, caption = ImGui::GetTextLineHeightWithSpacing();
  const float captions = layers > 1 ? 2 * caption : caption;  // per row: its layer's name, the heads'
  float side = 0;
  int columns = count / layers;
  for (int c = layers > 1 ? columns : 1; c <= (layers > 1 ? columns : count); ++c) {
    const int rows = (count + c - 1) / c;
    const float fit = std::min((avail.x - gap * (c - 1)) / c, (avail.y - rows * (captions + gap)) / rows);
    if (fit > side) side = fit, columns = c;
  }
  side = std::floor(std::max(side, 16 * scale));
  const float aspect = float(s.nq) / float(s.nk);  // rows over columns, within the square
  const ImVec2 size(aspect > 1 ? side / aspect : side, aspect > 1 ? side : side * aspect);
  const render::HeatmapLook look = heatmap_look(HeatmapSpec{});  // weights: sequential, 0 … 1
  const Palette& p = palette();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int i = 0; i < count; ++i) {
    const lab::LoadedHead& h = heads[std::size_t(i)];
    if (layers > 1 && h.head == 0) ImGui::TextUnformatted(i18n::format(tr("layer %d"), h.layer).c_str());
    else if (i % columns) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(i);
    const bool current = i == s.head;
    const std::string label = layers > 1 ? std::to_string(h.head) : name(i);
    ImGui::TextColored(current ? p.accent : p.muted_text, "%s", label.c_str());
    const ImVec2 at = ImGui::GetCursorScreenPos(), end(at.x + size.x, at.y + size.y);
    input::next_item(input::ItemKind::heatmap, label);  // a small map: a tap shows its head
    if (ImGui::InvisibleButton("map", ImVec2(side, side))) lab::show_head(next, i);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::format(tr("Show %s in the walkthrough"), name(i).c_str()).c_str());
    draw_heatmap(ui.head_maps[i], weights[std::size_t(i)].data(), s.nq, s.nk, lab.version(), at, end,
                 {0, 0, float(s.nk), float(s.nq)}, look);
    if (current)
      draw->AddRect(ImVec2(at.x - 1, at.y - 1), ImVec2(at.x + size.x + 1, at.y + size.y + 1),
                    ImGui::ColorConvertFloat4ToU32(p.accent), 0, 0, 2 * scale);
    ImGui::PopID();
    ImGui::EndGroup();
  }
}

}  // namespace ui
