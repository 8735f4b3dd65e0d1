// [SECTION] figure mode (the link's `figure`): an embedded figure shows only the parts its
// text needs, in the link's order, laid out to the width: cards side by side where they fit,
// one column on a phone, at most 1400 CSS pixels wide. Nothing in it scrolls: every card is
// as tall as its content, and the figure's height (ui.figure_height) is what the page sizes
// its canvas (and the lesson its frame) to. Below the parts, a way to the full lab.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "measured_card.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

constexpr int kMaxPerRow = 3;

bool is_stage(std::string_view part, lab::Step& step) {
  return part != "input" && lab::parse_name(part, step);
}

// The walkthrough's card parts besides the stages (their names: src/state/figure_parts.cpp),
// each with the width (unscaled) under which it does not go beside another card (the
// arithmetic's lines, a control's labels) and how it draws.
using DrawCard = void (*)(const lab::Lab& lab, lab::State& next, Memory& ui);
struct CardPart {
  std::string_view name;
  float min_width;
  DrawCard draw;
};
const CardPart kCardParts[] = {
    {"input", 560, [](const lab::Lab& lab, lab::State& next, Memory& ui) { projections(lab, next, ui, 0); }},
    {"arithmetic", 330, arithmetic},
    {"practice", 330,
     [](const lab::Lab& lab, lab::State& next, Memory& ui) {
       if (lab.state().mode == lab::Mode::practice) practice(lab, next, ui);
       else ImGui::TextWrapped("%s", tr("The practice card shows with mode=practice."));
     }},
    {"geometry", 300,
     [](const lab::Lab& lab, lab::State& next, Memory& ui) {
       if (lab.state().dk == 2) geometry(lab, next, ui);
       else ImGui::TextWrapped(tr("The plane of arrows shows d_k = 2; here d_k = %d."), lab.state().dk);
     }},
    {"inputs", 270, inputs},
    {"shape-control", 270, shape_control},
    {"scale-control", 270, scale_control},
    {"mask-control", 270, mask_control},
    {"matrices", 270, matrices},
};
const CardPart* find_card_part(std::string_view name) {
  for (const CardPart& p : kCardParts)
    if (p.name == name) return &p;
  return nullptr;
}

// The width (unscaled) under which a card does not go beside another: a stage's matrix, or the
// part's row above. 0: a part that takes a row of its own.
float min_width(const lab::State& s, std::string_view part) {
  lab::Step step;
  if (lab::is_experiment_view(s.view)) return 0;
  if (is_stage(part, step)) return 280;
  const CardPart* card = find_card_part(part);
  return card ? card->min_width : 0;
}

// How tall a card part is drawn: a stage's card as its matrix needs; the others as measured
// (a first guess until they have been drawn once).
float part_height(const lab::Lab& lab, Memory& ui, std::string_view part, float width) {
  lab::Step step;
  // A stage hidden until a practice question is answered holds a sentence, not its matrix.
  if (is_stage(part, step) && int(step) >= first_hidden_step(lab)) return 120 * ui_scale();
  if (is_stage(part, step)) return stage_card_height(lab, width);
  return measured_height(ui, "figure " + std::string(part), 200 * ui_scale());
}

void draw_card(const lab::Lab& lab, lab::State& next, Memory& ui, const std::string& part, ImVec2 size) {
  lab::Step step;
  if (is_stage(part, step)) return stage_card(lab, next, ui, step, size);
  const CardPart* card = find_card_part(part);
  if (!card) return;  // the link's parser keeps only the view's parts
  measured_card(ui, "figure " + part, size.x, size.y, part != "input", [&] { card->draw(lab, next, ui); });
}

// A row's parts: those that fit side by side at their least width, up to three.
std::vector<std::size_t> next_row(const lab::State& s, std::size_t from, float avail, float scale, float gap) {
  std::vector<std::size_t> row{from};
  float used = min_width(s, s.figure[from]) * scale;
  if (used == 0) return row;
  for (std::size_t i = from + 1; i < s.figure.size() && row.size() < kMaxPerRow; ++i) {
    const float w = min_width(s, s.figure[i]) * scale;
    if (w == 0 || used + gap + w > avail) break;
    used += gap + w;
    row.push_back(i);
  }
  return row;
}

// A part of an experiment view, or the whole view (`view`): drawn by the view itself, full width.
void experiment_part(const lab::Lab& lab, lab::State& next, Memory& ui, const std::string& part) {
  ui.section = part == "view" ? "" : part;
  experiment(lab, next, ui);
  ui.section.clear();
}

// Compare's three maps: compare_scales() fits its cards into the height it is given, three in a
// row where the width allows (each then as tall as its width makes it), else one under the
// other; the card around them is as tall as what that draws.
void compare_part(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const float scale = ui_scale(), gap = ImGui::GetStyle().ItemSpacing.x;
  const float width = ImGui::GetContentRegionAvail().x, note = ImGui::GetTextLineHeightWithSpacing() * 3;
  const float room = width > 600 * scale ? 1e5f : 3 * (std::min(width * 1.15f, 440 * scale) + gap) + note;
  measured_card(ui, "figure view", width, part_height(lab, ui, "view", width), false,
                [&] { compare_scales(lab, next, ui, room); });
}

// "Open in the full lab ↗": the same state without `figure`, in a new tab.
void open_in_full_lab(const lab::Lab& lab, Memory& ui) {
  const char* label = tr("Open in the full lab ↗");
  const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, palette().accent);
  if (ImGui::Button(label)) {
    lab::State full = lab.state();
    full.figure.clear();
    ui.requests.emplace_back(request::OpenLab{lab::to_fragment(full)});
  }
  ImGui::PopStyleColor(2);
}

}  // namespace

void figure_mode(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  const float scale = ui_scale(), gap = ImGui::GetStyle().ItemSpacing.x;
  const bool has_header = std::find(s.figure.begin(), s.figure.end(), "header") != s.figure.end();
  if (!has_header) link_notes(ui);  // the header shows them otherwise
  for (std::size_t i = 0; i < s.figure.size();) {
    const std::string& part = s.figure[i];
    if (part == "header") {
      header(lab, next, ui);
      ++i;
    } else if (part == "steps") {
      stepper(s, next, ui);
      query_picker(lab, next, ui);
      ++i;
    } else if (lab::is_experiment_view(s.view)) {
      experiment_part(lab, next, ui, part);
      ++i;
    } else if (part == "view") {
      compare_part(lab, next, ui);
      ++i;
    } else {
      // Cards side by side, their widths in proportion to their least widths, as tall as the
      // tallest of the row.
      const float avail = ImGui::GetContentRegionAvail().x;
      const std::vector<std::size_t> row = next_row(s, i, avail, scale, gap);
      float total = 0;
      for (std::size_t k : row) total += min_width(s, s.figure[k]);
      std::vector<float> widths;
      float height = 0;
      for (std::size_t k : row) {
        widths.push_back((avail - gap * float(row.size() - 1)) * min_width(s, s.figure[k]) / total);
        height = std::max(height, part_height(lab, ui, s.figure[k], widths.back()));
      }
      for (std::size_t r = 0; r < row.size(); ++r) {
        if (r) ImGui::SameLine(0, gap);
        draw_card(lab, next, ui, s.figure[row[r]], ImVec2(widths[r], height));
      }
      i += row.size();
    }
    ImGui::Spacing();
  }
  open_in_full_lab(lab, ui);
  const ImGuiStyle& style = ImGui::GetStyle();
  ui.figure_height = ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y;
}

}  // namespace ui
