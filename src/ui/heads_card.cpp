// [SECTION] loaded data with several heads: every head's weights at once, as a grid of small
// maps beside the five stages, and the head the walkthrough shows; a click on a map (or the
// selector) shows that head.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "i18n.h"
#include "theme.h"
#include "ui.h"

namespace ui {

void heads_card(const lab::Lab& lab, lab::State& next, Ui& ui) {
  const lab::State& s = lab.state();
  const int count = lab::loaded_head_count(s);
  const float scale = ImGui::GetFontSize() / 16.0f;
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(tr("All heads"));
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 150 * scale));
  const std::string shown = i18n::format(tr("head %d of %d"), s.head, count);
  if (ImGui::BeginCombo("##head", shown.c_str())) {
    for (int h = 0; h < count; ++h)
      if (ImGui::Selectable(i18n::format(tr("head %d"), h).c_str(), h == s.head)) lab::show_head(next, h);
    ImGui::EndCombo();
  }
  const std::vector<attn::Matrix>& weights = lab.head_weights();
  if (weights.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
    ImGui::TextWrapped("%s", tr("Too large to compute every head at once: the selector shows one at a time."));
    ImGui::PopStyleColor();
    return;
  }
  // As many columns as keep the maps square and as large as the card allows.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x, caption = ImGui::GetTextLineHeightWithSpacing();
  float side = 0;
  int columns = 1;
  for (int c = 1; c <= count; ++c) {
    const int rows = (count + c - 1) / c;
    const float fit = std::min((avail.x - gap * (c - 1)) / c, (avail.y - rows * (caption + gap)) / rows);
    if (fit > side) side = fit, columns = c;
  }
  side = std::floor(std::max(side, 16 * scale));
  const float aspect = float(s.nq) / float(s.nk);  // rows over columns, within the square
  const ImVec2 size(aspect > 1 ? side / aspect : side, aspect > 1 ? side : side * aspect);
  const render::HeatmapLook look = heatmap_look(HeatmapSpec{});  // weights: sequential, 0 … 1
  const Palette& p = palette();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int h = 0; h < count; ++h) {
    if (h % columns) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(h);
    const bool current = h == s.head;
    ImGui::TextColored(current ? p.accent : palette().muted_text, "%s", i18n::format(tr("head %d"), h).c_str());
    render::Heatmap& map = ui.head_maps[h];
    map.set_values(weights[std::size_t(h)].data(), s.nq, s.nk, lab.version());
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton("map", ImVec2(side, side))) lab::show_head(next, h);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::format(tr("Show head %d in the walkthrough"), h).c_str());
    const unsigned image = map.paint(int(size.x), int(size.y), {0, 0, float(s.nk), float(s.nq)}, look);
    draw->AddImage(gl_texture(image), at, ImVec2(at.x + size.x, at.y + size.y));
    if (current)
      draw->AddRect(ImVec2(at.x - 1, at.y - 1), ImVec2(at.x + size.x + 1, at.y + size.y + 1),
                    ImGui::ColorConvertFloat4ToU32(p.accent), 0, 0, 2 * scale);
    ImGui::PopID();
    ImGui::EndGroup();
  }
}

}  // namespace ui
