// [SECTION] the header: title, formula, the view selector, theme, the stepper (previous / play /
// next and the step chips, 0 to 5); [SECTION] keyboard; the notes about ignored URL values.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "about.h"
#include "accessibility.h"
#include "combo.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

constexpr double kPlaySeconds = 1.6;
constexpr const char* kMenu = "☰##menu";  // the narrow header's menu: a symbol, in every language
constexpr double kReducedMotionPlaySeconds = 5.0;  // prefers-reduced-motion: a slower pace

void step_by(lab::State& next, int delta) {
  next.step = lab::Step(std::clamp(int(next.step) + delta, 0, lab::kStepCount - 1));
}

// Play (from the start when at the last step) or pause: the ▶ button and the Space key.
void toggle_play(const lab::State& s, lab::State& next, Memory& ui) {
  ui.playing = !ui.playing;
  ui.last_step = ImGui::GetTime();
  if (ui.playing && s.step == lab::Step::output) next.step = lab::Step::scores;
}

void view_selector(const lab::State& s, lab::State& next, float width) {
  const char* shown = tr(lab::kViews[std::size_t(s.view)].title);
  ImGui::SetNextItemWidth(width);
  if (begin_combo("##view", shown)) {
    for (const lab::ViewRow& v : lab::kViews)
      if (ImGui::Selectable(tr(v.title), s.view == v.view)) next.view = v.view;
    end_combo();
  }
}

// Undo and redo of the person's edits (history.h), as Ctrl+Z and Ctrl+Shift+Z.
constexpr const char* kUndo = N_("Undo");
constexpr const char* kRedo = N_("Redo");
float history_buttons_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize(tr(kUndo)).x + ImGui::CalcTextSize(tr(kRedo)).x + style.FramePadding.x * 4 + style.ItemSpacing.x * 2;
}
void history_buttons(Memory& ui) {
  ImGui::BeginDisabled(!ui.history.can_undo());
  if (ImGui::Button(tr(kUndo))) --ui.history_steps;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr("Undo the last edit (Ctrl+Z)"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!ui.history.can_redo());
  if (ImGui::Button(tr(kRedo))) ++ui.history_steps;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr("Redo what was undone (Ctrl+Shift+Z)"));
  ImGui::EndDisabled();
}

constexpr const char* kLesson = N_("Lesson");
void lesson_button(Memory& ui) {
  ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  if (ImGui::Button(tr(kLesson))) ui.open_lesson(i18n::code(i18n::language()));
  ImGui::PopStyleColor(2);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("A guided lesson: from the dot product to a model learning to attend"));
}

}  // namespace

void header(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("Attention Lab");
  ImGui::PopFont();
  // The formula beside the title when it fits between the title and the switches, otherwise
  // on a line of its own (a narrow embed).
  const char* formula = "softmax(QKᵀ / √d_k) · V";
  float view_w = 0;
  for (const lab::ViewRow& v : lab::kViews) view_w = std::max(view_w, ImGui::CalcTextSize(tr(v.title)).x);
  view_w += ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
  // The palette says which theme is on screen (theme=auto follows the system).
  const char* theme_label = palette().dark ? tr("☀ Light") : tr("☾ Dark");
  // The other language, named in itself: the switch a reader of that language looks for.
  const bool spanish = i18n::language() == i18n::Lang::es;
  const char* lang_label = spanish ? "English" : "Español";
  const ImGuiStyle& style = ImGui::GetStyle();
  // The front door for a student: the guided lesson, one tap from the lab. First of the
  // buttons on the right; beside the title where the others go into the menu (a phone).
  const float lesson_w = ui.open_lesson ? ImGui::CalcTextSize(tr(kLesson)).x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  const float buttons_w = view_w + ImGui::CalcTextSize(theme_label).x + ImGui::CalcTextSize(lang_label).x +
                          style.FramePadding.x * 4 + style.ItemSpacing.x * 4 + export_button_width() +
                          about_button_width() + history_buttons_width() + lesson_w;
  const float buttons_x = ImGui::GetWindowContentRegionMax().x - buttons_w;
  const float content_w = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
  const bool in_menu = buttons_w > content_w;
  if (in_menu && ui.open_lesson) {
    ImGui::SameLine();
    lesson_button(ui);
  }
  const float formula_w = ImGui::CalcTextSize(formula).x + style.ItemSpacing.x * 3;
  const bool formula_beside = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + formula_w < buttons_x;
  if (formula_beside) {
    ImGui::SameLine(0, style.ItemSpacing.x * 2);
    ImGui::TextColored(palette().muted_text, "%s", formula);
  }
  // The buttons at the right of the title line, or on a line of their own where they would
  // cover the title (a narrow embed). Where even a line of their own is too narrow (a phone),
  // the view and the history stay and the rest go into a menu.
  const float menu_button_w = ImGui::CalcTextSize(kMenu, nullptr, true).x + style.FramePadding.x * 2;
  if (in_menu) {
    const float menu_w = view_w + history_buttons_width() + menu_button_w + style.ItemSpacing.x * 2;
    if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x <= content_w - menu_w)
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - menu_w);
  } else if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x <= buttons_x) {
    ImGui::SameLine(buttons_x);
  }
  if (!in_menu && ui.open_lesson) {
    lesson_button(ui);
    ImGui::SameLine();
  }
  history_buttons(ui);
  ImGui::SameLine();
  if (!in_menu) {
    export_menu(lab, ui);
    ImGui::SameLine();
  }
  // The view's name shortened (ellipsis) where a phone's line is narrower still.
  const float view_room = content_w - history_buttons_width() - style.ItemSpacing.x * 2 - (in_menu ? menu_button_w : 0);
  view_selector(s, next, std::min(view_w, view_room));
  ImGui::SameLine();
  // The other switches: on the line, or in the menu (a column of full-width buttons).
  // A switch chosen in the menu closes it: the change is what the reader wanted to see.
  const auto switches = [&](float width) {
    if (ImGui::Button(theme_label, ImVec2(width, 0))) {
      next.theme = palette().dark ? lab::Theme::light : lab::Theme::dark;
      if (width > 0) ImGui::CloseCurrentPopup();
    }
    if (width == 0) ImGui::SameLine();
    if (ImGui::Button(lang_label, ImVec2(width, 0))) {
      next.lang = spanish ? lab::Language::en : lab::Language::es;
      if (width > 0) ImGui::CloseCurrentPopup();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spanish ? "Show the interface in English" : "Mostrar la interfaz en español");
    if (width == 0) ImGui::SameLine();
    about_button(ui);
  };
  if (!in_menu) {
    switches(0);
  } else {
    if (ImGui::Button(kMenu)) ImGui::OpenPopup("header-menu");
    if (ImGui::BeginPopup("header-menu")) {
      export_menu(lab, ui);
      switches(ImGui::GetItemRectSize().x);
      ImGui::EndPopup();
    }
  }
  if (!formula_beside) ImGui::TextColored(palette().muted_text, "%s", formula);

  // The stepper: the walkthrough's and compare's (an experiment has its own controls), unless a
  // figure shows it as a part of its own.
  const bool own_part = std::find(s.figure.begin(), s.figure.end(), "steps") != s.figure.end();
  if (!lab::is_experiment_view(s.view) && !own_part) stepper(s, next, ui);
  link_notes(ui);
}

void stepper(const lab::State& s, lab::State& next, Memory& ui) {
  ImGui::BeginDisabled(s.step == lab::Step::input);
  if (ImGui::Button(tr("← Previous"))) step_by(next, -1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(ui.playing ? tr("❚❚ Pause") : tr("▶ Play"))) toggle_play(s, next, ui);
  ImGui::SameLine();
  ImGui::BeginDisabled(s.step == lab::Step::output);
  if (ImGui::Button(tr("Next →"))) step_by(next, +1);
  ImGui::EndDisabled();
  for (int i = 0; i < lab::kStepCount; ++i) {
    const std::string chip = std::to_string(i) + " " + tr(lab::step_name(lab::Step(i)));  // step 0: the input
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
    if (current && ui.show_focus && ui.focus == Memory::Focus::stepper) focus_ring(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  }
  // Practice mode: a question about the screen beside the walkthrough (the side panel).
  bool practicing = s.mode == lab::Mode::practice;
  const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(tr("Practice")).x;
  if (ImGui::GetItemRectMax().x + 24.0f * ImGui::GetFontSize() / 16 + box < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine(0, 24.0f * ImGui::GetFontSize() / 16);
  if (ImGui::Checkbox(tr("Practice"), &practicing)) next.mode = practicing ? lab::Mode::practice : lab::Mode::explore;
  if (ui.playing && ImGui::GetTime() - ui.last_step > (ui.reduced_motion ? kReducedMotionPlaySeconds : kPlaySeconds)) {
    ui.last_step = ImGui::GetTime();
    if (s.step == lab::Step::output) ui.playing = false;
    else step_by(next, +1);
  }
}

// Ignored URL keys and values: visible, dismissible, never fatal.
void link_notes(Memory& ui) {
  if (!ui.notes.empty()) {
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().note);
    // The child's height is its content's (ImGui 1.86 has no auto-resizing child): each note as
    // wrapped at the banner's width, then Dismiss, a SmallButton (no frame padding).
    std::vector<std::string> lines;
    for (const std::string& note : ui.notes) lines.push_back(i18n::format(tr("This link: %s."), note.c_str()));
    const float wrap = ImGui::GetContentRegionAvail().x - st.WindowPadding.x * 2;
    float h = st.WindowPadding.y * 2 + ImGui::GetFontSize();
    for (const std::string& line : lines) h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + st.ItemSpacing.y;
    ImGui::BeginChild("notes", ImVec2(0, h), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    for (const std::string& line : lines) ImGui::TextWrapped("%s", line.c_str());
    if (ImGui::SmallButton(tr("Dismiss"))) ui.notes.clear();
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
}

void keyboard(const lab::Lab& lab, lab::State& next, Memory& ui) {
  std::vector<Memory::Key> keys;
  keys.swap(ui.keys);
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.show_focus = false;
  // Typing in a field or dragging a value keeps its own use of the arrows.
  // (A text field's own Ctrl+Z undoes its typing.)
  if (keys.empty() || ImGui::GetIO().WantTextInput || ImGui::IsAnyItemActive()) return;
  // Undo and redo wherever the focus is; the other keys are the zones'.
  const auto history_key = [](Memory::Key key) { return key == Memory::Key::undo || key == Memory::Key::redo; };
  for (Memory::Key key : keys) ui.history_steps += key == Memory::Key::undo ? -1 : key == Memory::Key::redo ? 1 : 0;
  keys.erase(std::remove_if(keys.begin(), keys.end(), history_key), keys.end());
  if (keys.empty()) return;
  ui.show_focus = true;
  // view=train: Space plays or pauses the training; the walkthrough's keys do nothing there.
  if (lab.state().view == lab::View::train) {
    for (Memory::Key key : keys)
      if (key == Memory::Key::space) next.play = !next.play;
    return;
  }
  // One key at a time, each read by the zone that has the focus when it comes: Escape then ←
  // in one frame leaves the heatmap and then steps back.
  for (Memory::Key key : keys) {
    if (ui.focus == Memory::Focus::cells) {
      cell_key(lab, next, ui, key);
      continue;
    }
    switch (key) {
      case Memory::Key::right: step_by(next, +1), ui.playing = false; break;
      case Memory::Key::left: step_by(next, -1), ui.playing = false; break;
      case Memory::Key::down: next.query = std::min(next.query + 1, lab.state().nq - 1); break;
      case Memory::Key::up: next.query = std::max(next.query - 1, 0); break;
      case Memory::Key::space: toggle_play(lab.state(), next, ui); break;
      case Memory::Key::enter:
      case Memory::Key::escape:
      case Memory::Key::undo:  // taken above
      case Memory::Key::redo: break;
    }
  }
}

}  // namespace ui
