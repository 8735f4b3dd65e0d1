// [SECTION] the header: title, formula, the stepper (previous / play / next and the five
// stage chips), theme; [SECTION] keyboard; the notes about ignored URL values.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

constexpr double kPlaySeconds = 1.6;

void step_by(lab::State& next, int delta) {
  next.step = lab::Step(std::clamp(int(next.step) + delta, 0, lab::kStepCount - 1));
}

}  // namespace

void header(const lab::Lab& lab, lab::State& next, Ui& ui) {
  const lab::State& s = lab.state();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("Attention Lab");
  ImGui::PopFont();
  // The formula beside the title when it fits between the title and the switches, otherwise
  // on a line of its own (a narrow embed).
  const char* formula = "softmax(QKᵀ / √d_k) · V";
  const char* view_label = s.view == "compare" ? "Walkthrough" : "Compare scales";
  const char* theme_label = s.theme == "dark" ? "☀ Light" : "☾ Dark";
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons_w = ImGui::CalcTextSize(view_label).x + ImGui::CalcTextSize(theme_label).x +
                          style.FramePadding.x * 4 + style.ItemSpacing.x;
  const float buttons_x = ImGui::GetWindowContentRegionMax().x - buttons_w;
  const float formula_w = ImGui::CalcTextSize(formula).x + style.ItemSpacing.x * 3;
  const bool formula_beside = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + formula_w < buttons_x;
  if (formula_beside) {
    ImGui::SameLine(0, style.ItemSpacing.x * 2);
    ImGui::TextColored(palette().muted_text, "%s", formula);
  }
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), buttons_x));
  if (ImGui::Button(view_label)) next.view = s.view == "compare" ? "walkthrough" : "compare";
  ImGui::SameLine();
  if (ImGui::Button(theme_label)) next.theme = s.theme == "dark" ? "light" : "dark";
  if (!formula_beside) ImGui::TextColored(palette().muted_text, "%s", formula);

  // The stepper.
  ImGui::BeginDisabled(s.step == lab::Step::scores);
  if (ImGui::Button("← Previous")) step_by(next, -1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(ui.playing ? "❚❚ Pause" : "▶ Play")) {
    ui.playing = !ui.playing;
    ui.last_step = ImGui::GetTime();
    if (ui.playing && s.step == lab::Step::output) next.step = lab::Step::scores;
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(s.step == lab::Step::output);
  if (ImGui::Button("Next →")) step_by(next, +1);
  ImGui::EndDisabled();
  for (int i = 0; i < lab::kStepCount; ++i) {
    const std::string chip = std::to_string(i + 1) + " " + lab::step_name(lab::Step(i));
    // The chips wrap to a second line in a narrow embed.
    const float gap = i == 0 ? 24.0f * ImGui::GetFontSize() / 16 : ImGui::GetStyle().ItemSpacing.x;
    const float width = ImGui::CalcTextSize(chip.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    const float right = ImGui::GetItemRectMax().x + gap + width;
    if (right < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine(0, gap);
    const bool current = i == int(s.step);
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
    if (current) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    if (ImGui::Button(chip.c_str())) next.step = lab::Step(i);
    if (current) ImGui::PopStyleColor(2);
  }
  if (ui.playing && ImGui::GetTime() - ui.last_step > kPlaySeconds) {
    ui.last_step = ImGui::GetTime();
    if (s.step == lab::Step::output) ui.playing = false;
    else step_by(next, +1);
  }

  // Ignored URL keys and values: visible, dismissible, never fatal.
  if (!ui.notes.empty()) {
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().note);
    const float h = ImGui::GetTextLineHeightWithSpacing() * float(ui.notes.size()) + ImGui::GetFrameHeight() +
                    st.WindowPadding.y * 2 + st.ItemSpacing.y;
    ImGui::BeginChild("notes", ImVec2(0, h), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    for (const std::string& note : ui.notes) ImGui::TextWrapped("This link: %s.", note.c_str());
    if (ImGui::SmallButton("Dismiss")) ui.notes.clear();
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
}

void keyboard(const lab::Lab& lab, lab::State& next, Ui& ui) {
  std::vector<Ui::Arrow> arrows;
  arrows.swap(ui.arrows);
  // Typing in a field or dragging a value keeps its own use of the arrows.
  if (ImGui::GetIO().WantTextInput || ImGui::IsAnyItemActive()) return;
  for (Ui::Arrow a : arrows) {
    switch (a) {
      case Ui::Arrow::right: step_by(next, +1), ui.playing = false; break;
      case Ui::Arrow::left: step_by(next, -1), ui.playing = false; break;
      case Ui::Arrow::down: next.query = std::min(next.query + 1, lab.state().nq - 1); break;
      case Ui::Arrow::up: next.query = std::max(next.query - 1, 0); break;
    }
  }
}

}  // namespace ui
