// [SECTION] view=model's heads: every layer's every head as a small map over the text, with its
// label and scores, how much it matters to the loss here, and its switch (ablation); a click or
// tap opens it large, where the chosen character's row reads over the text.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "i18n.h"
#include "load.h"
#include "model_parts.h"
#include "number_text.h"
#include "theme.h"
#include "input/item_layout.h"

namespace ui::views {
namespace {

// A head's label from the report (docs/model.md: "induction", "previous-token", or none), in
// the reader's language.
std::string head_label(const lab::ModelView& mv, int i) {
  static constexpr const char* kLabels[] = {N_("induction"), N_("previous-token")};
  if (mv.report().empty()) return "";
  const std::string& label = mv.report()[std::size_t(i)].label;
  for (const char* known : kLabels)
    if (label == known) return tr(known);
  return label;
}

// How much head i matters here, a change of loss in signed nats ("+0.42"); "…" for the frame
// before its pass has run (ModelView::pending()).
std::string matters(const lab::ModelView::Result& r, int i) {
  if (r.matters.empty()) return "…";
  const double x = r.matters[std::size_t(i)];
  return (x >= 0 ? "+" : "") + text::fixed(x, 2);
}

// The key a head's row looks at most, as "→ "e" 0.63".
std::string top_key(const attn::Matrix& map, int row, const std::vector<std::string>& tokens) {
  Eigen::Index key = 0;
  const float w = map.row(row).maxCoeff(&key);
  const std::string& t = tokens[std::size_t(key)];
  return i18n::format(tr("→ %d \"%s\" %s"), int(key), shown(t).c_str(), text::fixed(w, 2).c_str());
}

}  // namespace

bool switched_off(const lab::State& s, int layer, int head) {
  return std::find(s.ablate.begin(), s.ablate.end(), std::pair{layer, head}) != s.ablate.end();
}

void toggle(lab::State& next, int layer, int head) {
  auto& a = next.ablate;
  const auto it = std::find(a.begin(), a.end(), std::pair{layer, head});
  if (it == a.end()) a.emplace_back(layer, head);
  else a.erase(it);
}

void head_switches(const lab::Lab& lab, lab::State& next) {
  const lm::Architecture& c = lab.model().model()->config;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("Heads on:"));
  for (int layer = 0; layer < c.layers; ++layer)
    for (int head = 0; head < c.heads; ++head) {
      const std::string name = head_name(layer, head);
      const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
      beside_if_room(box, name.c_str());
      bool on = !switched_off(lab.state(), layer, head);
      input::next_item(input::ItemKind::checkbox, i18n::format(tr("switch %s"), name.c_str()));
      if (ImGui::Checkbox(name.c_str(), &on)) toggle(next, layer, head);
    }
}

void model_heads(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::ModelView& mv = lab.model();
  const lab::ModelView::Result& r = mv.result();
  const lm::Architecture& c = mv.model()->config;
  const int n = int(r.tokens.size());
  const int position = chosen_character(lab);
  const bool chosen = position >= 0;
  const int open = mv.open_head();
  heading(tr("Every head"));
  notice(by_token(lab)
             ? tr("Each map: a row per token, a column per token before it, brighter (towards yellow) where it looks "
                  "more. Click or tap a map to open it. \"On\" switches a head off and on: its output is left out, and "
                  "the loss, the predictions and the other maps follow. \"Matters\" is the mean loss on your text with "
                  "that head switched the other way, minus as it is.")
             : tr("Each map: a row per character, a column per character before it, brighter (towards yellow) where it "
                  "looks more. Click or tap a map to open it. \"On\" switches a head off and on: its output is left out, "
                  "and the loss, the predictions and the other maps follow. \"Matters\" is the mean loss on your text "
                  "with that head switched the other way, minus as it is."));
  const float scale = ui_scale(), gap = ImGui::GetStyle().ItemSpacing.x;
  // As many of a layer's heads on a row as keep each 120 px wide or more (its label, switch and
  // numbers under the map): all of them on a laptop, two on a phone.
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_row = std::clamp(int((avail + gap) / (120 * scale + gap)), 1, c.heads);
  const float side = std::floor(std::min(180 * scale, (avail - gap * float(per_row - 1)) / float(per_row)));
  const render::HeatmapLook look = heatmap_look(HeatmapSpec{});
  const Palette& p = palette();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int layer = 0; layer < c.layers; ++layer) {
    ImGui::TextUnformatted(i18n::format(tr("layer %d"), layer).c_str());
    for (int head = 0; head < c.heads; ++head) {
      const int i = layer * c.heads + head;
      if (head % per_row) ImGui::SameLine(0, gap);
      ImGui::BeginGroup();
      ImGui::PushID(i);
      const std::string name = head_name(layer, head);
      const std::string label = head_label(mv, i);
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side);
      ImGui::TextColored(i == open ? p.accent : p.muted_text, "%s%s%s", name.c_str(), label.empty() ? "" : " ",
                         label.c_str());
      ImGui::PopTextWrapPos();
      const bool off = switched_off(lab.state(), layer, head);
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const ImVec2 end(at.x + side, at.y + side);
      input::next_item(input::ItemKind::heatmap, i18n::format(tr("head %s"), name.c_str()));
      if (ImGui::InvisibleButton("map", ImVec2(side, side))) {
        next.open_head = open == i ? std::nullopt : std::optional(std::pair{layer, head});
        ui.model_head_clicked = open != i;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::format(tr("Open head %s"), name.c_str()).c_str());
      draw_heatmap(ui.model_maps[i], r.analysis.maps[std::size_t(i)].data(), n, n, mv.version(), at, end,
                   {0, 0, float(n), float(n)}, look, off ? IM_COL32(255, 255, 255, 70) : IM_COL32_WHITE);
      if (chosen) {  // the chosen character's row
        const float y = at.y + side * (float(position) + 0.5f) / float(n);
        draw->AddLine(ImVec2(at.x, y), ImVec2(at.x + side, y), ImGui::ColorConvertFloat4ToU32(p.accent), 1.5f * scale);
      }
      if (i == open)
        draw->AddRect(ImVec2(at.x - 1, at.y - 1), ImVec2(at.x + side + 1, at.y + side + 1),
                      ImGui::ColorConvertFloat4ToU32(p.accent), 0, 0, 2 * scale);
      bool on = !off;
      input::next_item(input::ItemKind::checkbox, i18n::format(tr("on %s"), name.c_str()));
      if (ImGui::Checkbox(tr("on"), &on)) toggle(next, layer, head);
      ImGui::TextColored(p.muted_text, "%s", i18n::format(tr("matters %s"), matters(r, i).c_str()).c_str());
      if (chosen) ImGui::TextColored(p.muted_text, "%s", top_key(r.analysis.maps[std::size_t(i)], position, r.tokens).c_str());
      ImGui::PopID();
      ImGui::EndGroup();
    }
  }
}

void model_head(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::ModelView& mv = lab.model();
  const lab::ModelView::Result& r = mv.result();
  const lm::Architecture& c = mv.model()->config;
  const int open = mv.open_head();
  if (const std::string e = mv.open_head_error(); !e.empty()) note(e);
  if (open < 0) {
    notice(tr("No head is open: click or tap a head's map to open it here, large, with its scores."));
    return;
  }
  const int layer = open / c.heads, head = open % c.heads, n = int(r.tokens.size());
  const std::string name = head_name(layer, head);
  const attn::Matrix& weights = r.analysis.maps[std::size_t(open)];
  if (std::exchange(ui.model_head_clicked, false)) scroll_to_here(ui);  // opened below the heads: bring it up
  ImGui::Separator();
  const std::string label = head_label(mv, open);
  heading(i18n::format(label.empty() ? tr("Head %s") : tr("Head %s: %s"), name.c_str(), label.c_str()).c_str());
  if (!mv.report().empty()) {
    const lab::HeadReport& h = mv.report()[std::size_t(open)];
    notice(i18n::format(tr("Measured on the probe text (docs/model.md): previous-token score %s on held-out text; "
                           "induction score %s on random strings typed twice, %s on sentences typed twice."),
                        text::fixed(h.previous_token, 2).c_str(), text::fixed(h.induction_random, 2).c_str(),
                        text::fixed(h.induction_sentences, 2).c_str())
               .c_str());
  }
  std::string here = i18n::format(tr("On your text: previous-token score %s"),
                                  text::fixed(r.previous_token[std::size_t(open)], 2).c_str());
  if (r.period)
    here += i18n::format(tr("; induction score %s on the copy"), text::fixed(r.induction[std::size_t(open)], 2).c_str());
  here += i18n::format(tr("; switched the other way, the mean loss changes by %s nats."),
                       matters(r, open).c_str());
  notice(here.c_str());
  if (ImGui::Button(tr("Close"))) next.open_head.reset();
  ImGui::SameLine();
  if (ImGui::Button(switched_off(lab.state(), layer, head) ? tr("Switch it on") : tr("Switch it off")))
    toggle(next, layer, head);
  const int position = chosen_character(lab);
  const bool chosen = position >= 0;
  // Its own Q, K and V on this text, through the five stages (Undo comes back here).
  const char* walk = tr("Open in the walkthrough");
  beside_if_room(ImGui::CalcTextSize(walk).x + 2 * ImGui::GetStyle().FramePadding.x, "");
  if (ImGui::Button(walk)) {
    const lab::ModelView::Request request = mv.walkthrough_request(open);
    lab::Loaded loaded = lab::load_request(request.request, request.options, lab.state());
    if (loaded.error.empty()) {
      next = std::move(loaded.state);
      next.query = chosen ? position : n - 1;  // the character chosen here (else the last, as predicted)
    } else {
      ui.notes.push_back(loaded.error);
    }
  }
  if (chosen) {
    ImGui::TextUnformatted(
        i18n::format(by_token(lab) ? tr("Where token %d, \"%s\", looks:") : tr("Where character %d, \"%s\", looks:"),
                     position, shown(r.tokens[std::size_t(position)]).c_str())
            .c_str());
    const int clicked = text_strip("row", r.tokens, [&](int j) {
      return j <= position ? weights(position, j) : -1.0f;
    }, position);
    if (clicked >= 0) next.at = clicked;
  }
  const auto token = [&](int i) { return shown(r.tokens[std::size_t(i)]); };
  MapSpec spec;
  spec.title = i18n::format(tr("Head %s's attention weights"), name.c_str());
  spec.values = &weights;
  spec.rows = token;
  spec.cols = token;
  spec.highlight_row = chosen ? position : -1;
  spec.zoom_to_read = true;
  spec.version = mv.version();
  const float scale = ui_scale();
  // At most 460: the lesson's figures of one head (its scores, the switches and this map) stay
  // one screen tall on a tablet in landscape (1024 × 768, touch-sized controls; 520 was 806 px).
  spec.height = std::min(ImGui::GetContentRegionAvail().x, 460 * scale);
  const HeatmapHit hit = map(ui, lab, "model head", spec);
  if (hit.clicked && hit.row >= 0) next.at = hit.row;
}

}  // namespace ui::views
