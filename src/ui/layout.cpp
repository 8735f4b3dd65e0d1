// [SECTION] the window layout: header on top; inputs | stages | arithmetic side by side on a
// wide window, stacked in one scrolling column in a narrow embed. Panels never overlap.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>
#include <utility>

#include "i18n.h"
#include "measured_card.h"
#include "theme.h"
#include "ui.h"

namespace ui {

namespace {
constexpr float kMaxFigureWidth = 1400;  // CSS pixels: a wider column centres the figure

// A new view starts at its top: every region of the window scrolls back (ImGui keeps each
// child's scroll by its name, and views share names).
void scroll_all_to_top(Memory& ui) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* w : g.Windows)
    if (!(w->Flags & ImGuiWindowFlags_Popup)) ImGui::SetScrollY(w, 0), ImGui::SetScrollX(w, 0);
  ui.draw_again = true;  // the scroll applies when the regions begin again
}

// A narrow window (a phone, a tablet): one scrolling column and nothing scrolling inside it.
// The formula (where the header had no room for it), the stages with the explanation of the
// current step right under its card (its row of cards, on a tablet), then the inputs. A new
// step or query brings its card and explanation to the column's top; the ☰ menu's "Inputs"
// opens the inputs and brings them there.
template <class Question>
void column(const lab::Lab& lab, lab::State& next, Memory& ui, ImVec2 avail, Question question) {
  const lab::State& s = lab.state();
  const float scale = ImGui::GetFontSize() / 16.0f;
  const bool moved = ui.shown_step != int(s.step) || ui.shown_query != s.query;
  ui.shown_step = int(s.step);
  ui.shown_query = s.query;
  // Practice mode keeps its question, above the stages, in view.
  const bool bring = moved && s.mode != lab::Mode::practice;
  ImGui::BeginChild("column", avail, false);
  if (ui.header_narrow) ImGui::TextColored(palette().muted_text, "%s", kFormula);
  question();
  const auto explanation = [&] {
    const float width = ImGui::GetContentRegionAvail().x;
    measured_card(ui, "explanation", width, measured_height(ui, "explanation", 360 * scale), true,
                  [&] { arithmetic(lab, next, ui); });
    // The inputs from where the reader is, not only at the column's end.
    // (An id of its own: the header at the column's end has the same words.)
    const std::string open_inputs = std::string(tr("Inputs: shape, scale, mask, Q K V")) + "##open";
    if (s.density != lab::Density::compact && ImGui::Button(open_inputs.c_str())) ui.show_inputs = true;
  };
  if (s.view == lab::View::compare) {
    compare_scales(lab, next, ui, std::max(avail.y * 0.62f, 420 * scale));
    explanation();
  } else if (s.step == lab::Step::input) {
    if (bring) ImGui::SetScrollY(0.0f), ui.draw_again = true;
    projections(lab, next, ui, 0);
    ImGui::Spacing();
    explanation();
  } else {
    stages(lab, next, ui, 0, {explanation, bring});
  }
  ImGui::Spacing();
  if (s.density != lab::Density::compact) {
    if (std::exchange(ui.show_inputs, false)) ImGui::SetNextItemOpen(true), scroll_to_here(ui);
    if (ImGui::CollapsingHeader(tr("Inputs: shape, scale, mask, Q K V"))) inputs(lab, next, ui);
  }
  ImGui::EndChild();
}

}  // namespace

void scroll_to_here(Memory& ui) {
  ImGui::SetScrollY(std::max(0.0f, ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y));
  ui.draw_again = true;  // the scroll applies when the region begins again
}

const char* device_hint(const Memory& ui, const char* pointer, const char* touch) {
  return tr(ui.touch_screen ? touch : pointer);
}

lab::State draw(const lab::Lab& lab, Memory& ui) {
  lab::State next = lab.state();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImGuiWindowFlags window = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                  ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!lab.state().figure.empty()) {
    // A figure is as tall as its parts (the page sizes the canvas to ui.figure_height): it
    // never scrolls, and its width never depends on its height.
    const float width = std::min(vp->Size.x, kMaxFigureWidth * ImGui::GetFontSize() / 16.0f);
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + (vp->Size.x - width) / 2, vp->Pos.y));
    ImGui::SetNextWindowSize(ImVec2(width, vp->Size.y));
    ImGui::Begin("Attention Lab", nullptr, window | ImGuiWindowFlags_NoScrollWithMouse);
    figure_mode(lab, next, ui);
    keyboard(lab, next, ui);
    ImGui::End();
    return next;
  }
  ui.figure_height = 0;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin("Attention Lab", nullptr, window);
  if (std::exchange(ui.shown_view, int(lab.state().view)) != int(lab.state().view)) scroll_all_to_top(ui);
  header(lab, next, ui);
  ImGui::Spacing();

  const float scale = ImGui::GetFontSize() / 16.0f;
  const bool compact = lab.state().density == lab::Density::compact;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImGuiWindowFlags panel = ImGuiWindowFlags_AlwaysUseWindowPadding;
  // Practice mode's question: above the step's arithmetic on a wide window, above the stages
  // in a narrow column (where the stages would scroll it out of sight).
  auto question = [&] {
    if (lab.state().mode != lab::Mode::practice) return;
    practice(lab, next, ui);
    ImGui::Separator();
  };
  if (lab::is_experiment_view(lab.state().view)) {
    // An experiment fills the window in one scrolling panel; its cards lay themselves out.
    ImGui::BeginChild("experiment", avail, false, panel);
    experiment(lab, next, ui);
    ImGui::EndChild();
  } else if (avail.x >= 1100 * scale) {
    const float left = compact ? 0 : 270 * scale, right = 390 * scale;
    if (!compact) {
      ImGui::BeginChild("inputs", ImVec2(left, avail.y), true, panel);
      inputs(lab, next, ui);
      ImGui::EndChild();
      ImGui::SameLine(0, gap);
    }
    ImGui::BeginChild("stages", ImVec2(avail.x - left - right - gap * (compact ? 1 : 2), avail.y), false);
    if (lab.state().view == lab::View::compare) compare_scales(lab, next, ui, avail.y);
    else if (lab.state().step == lab::Step::input) projections(lab, next, ui, avail.y);
    else stages(lab, next, ui, avail.y);
    ImGui::EndChild();
    ImGui::SameLine(0, gap);
    ImGui::BeginChild("arithmetic", ImVec2(right, avail.y), true, panel);
    question();
    arithmetic(lab, next, ui);
    ImGui::EndChild();
  } else {
    column(lab, next, ui, avail, question);
  }
  keyboard(lab, next, ui);
  ImGui::End();
  return next;
}

}  // namespace ui
