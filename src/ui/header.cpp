// [SECTION] the header: title, formula, the view selector, theme, the stepper (previous / play /
// next and the step chips, 0 to 5); [SECTION] keyboard; the notes about ignored URL values.
#include <imgui.h>
#include <imgui_internal.h>

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

// While playing: the next step every kPlaySeconds, stopping at the last.
void play_clock(const lab::State& s, lab::State& next, Memory& ui) {
  if (ui.playing && ImGui::GetTime() - ui.last_step > (ui.reduced_motion ? kReducedMotionPlaySeconds : kPlaySeconds)) {
    ui.last_step = ImGui::GetTime();
    if (s.step == lab::Step::output) ui.playing = false;
    else step_by(next, +1);
  }
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
  if (ImGui::Button(tr(kUndo))) ui.requests.emplace_back(request::History{-1});
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr("Undo the last edit (Ctrl+Z)"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!ui.history.can_redo());
  if (ImGui::Button(tr(kRedo))) ui.requests.emplace_back(request::History{1});
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr("Redo what was undone (Ctrl+Shift+Z)"));
  ImGui::EndDisabled();
}

constexpr const char* kLesson = N_("Lesson");
void lesson_button(Memory& ui) {
  ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  if (ImGui::Button(tr(kLesson))) ui.requests.emplace_back(request::OpenLesson{i18n::code(i18n::language())});
  ImGui::PopStyleColor(2);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("A guided lesson: from the dot product to a model learning to attend"));
}

// ← Previous, ▶ Play and Next →: with their words, or as arrows `arrow_w` wide (a narrow header).
void stepper_arrows(const lab::State& s, lab::State& next, Memory& ui, float arrow_w = 0) {
  const bool arrows = arrow_w > 0;
  const ImVec2 size(arrow_w, 0);
  ImGui::BeginDisabled(s.step == lab::Step::input);
  if (ImGui::Button(arrows ? "←##previous" : tr("← Previous"), size)) step_by(next, -1);
  if (arrows && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("← Previous"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(arrows ? (ui.playing ? "❚❚##play" : "▶##play") : ui.playing ? tr("❚❚ Pause") : tr("▶ Play"), size))
    toggle_play(s, next, ui);
  ImGui::SameLine();
  ImGui::BeginDisabled(s.step == lab::Step::output);
  if (ImGui::Button(arrows ? "→##next" : tr("Next →"), size)) step_by(next, +1);
  if (arrows && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Next →"));
  ImGui::EndDisabled();
}

// The step chips, 0 to 5, wrapping to a new line where the window ends. `narrow`: on a line
// of their own, each at least a finger wide, and as bare numbers (the current one named)
// where their names would not all fit on that line.
void step_chips(const lab::State& s, lab::State& next, Memory& ui, bool narrow) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float min_w = narrow ? ImGui::GetFrameHeight() : 0;
  auto chip_text = [&](int i, bool named) { return std::to_string(i) + (named ? std::string(" ") + tr(lab::step_name(lab::Step(i))) : ""); };
  auto chip_w = [&](const std::string& text) { return std::max(min_w, ImGui::CalcTextSize(text.c_str()).x + style.FramePadding.x * 2); };
  bool named = true;
  if (narrow) {
    float all = 0;
    for (int i = 0; i < lab::kStepCount; ++i) all += chip_w(chip_text(i, true)) + (i ? style.ItemSpacing.x : 0);
    named = all <= ImGui::GetContentRegionAvail().x;
  }
  for (int i = 0; i < lab::kStepCount; ++i) {
    const bool current = i == int(s.step);
    const std::string chip = chip_text(i, named || current);  // step 0: the input
    const float gap = i == 0 && !narrow ? 24.0f * ui_scale() : style.ItemSpacing.x;
    const float width = chip_w(chip);
    if (!(narrow && i == 0) && ImGui::GetItemRectMax().x + gap + width < right_edge) ImGui::SameLine(0, gap);
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
    if (current) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    if (ImGui::Button(chip.c_str(), ImVec2(width, 0))) next.step = lab::Step(i);
    if (current) ImGui::PopStyleColor(2);
    if (current && ui.show_focus && ui.focus == Memory::Focus::stepper) focus_ring(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  }
  ui.play_shown = true;
  play_clock(s, next, ui);
}

// The view's name and its menu of views, `width` wide (with an ellipsis where narrower).
float view_width() {
  float w = 0;
  for (const lab::ViewRow& v : lab::kViews) w = std::max(w, ImGui::CalcTextSize(tr(v.title)).x);
  return w + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
}

// The other switches: on the line, or in the menu (a column of full-width buttons, `width`).
// A switch chosen in the menu closes it: the change is what the reader wanted to see.
void switches(lab::State& next, Memory& ui, float width) {
  const char* theme_label = palette().dark ? tr("☀ Light") : tr("☾ Dark");
  const bool spanish = i18n::language() == i18n::Lang::es;
  if (ImGui::Button(theme_label, ImVec2(width, 0))) {
    next.theme = palette().dark ? lab::Theme::light : lab::Theme::dark;
    if (width > 0) ImGui::CloseCurrentPopup();
  }
  if (width == 0) ImGui::SameLine();
  // The other language, named in itself: the switch a reader of that language looks for.
  if (ImGui::Button(spanish ? "English" : "Español", ImVec2(width, 0))) {
    next.lang = spanish ? lab::Language::en : lab::Language::es;
    if (width > 0) ImGui::CloseCurrentPopup();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spanish ? "Show the interface in English" : "Mostrar la interfaz en español");
  if (width == 0) ImGui::SameLine();
  about_button(ui);
}

// A narrow window (a phone, an upright tablet): what is needed at every moment stays in a
// fixed header of two or three short lines (the title, Lesson and ☰; the view, ← ▶ →; the
// step chips); the rest (the history, practice, export, theme, language, data) goes into ☰.
// The formula is the column's first line (layout.cpp): it scrolls away.
void narrow_header(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  ui.header_narrow = true;
  // Its lines closer together than the column's: a sixth of a phone's height for all three.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(style.ItemSpacing.x, std::min(style.ItemSpacing.y, 4 * ui_scale())));
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float menu_w = ImGui::CalcTextSize(kMenu, nullptr, true).x + style.FramePadding.x * 2;
  const float lesson_w = ui.lesson_offered ? ImGui::CalcTextSize(tr(kLesson)).x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  // Undo and Redo on the title's line where they fit (a tablet), else in the menu.
  const float title_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x;
  const bool history_inline = title_end + history_buttons_width() + style.ItemSpacing.x + lesson_w + menu_w <= right;
  ImGui::SameLine(right - menu_w - lesson_w - (history_inline ? history_buttons_width() + style.ItemSpacing.x : 0));
  if (history_inline) {
    history_buttons(ui);
    ImGui::SameLine();
  }
  if (ui.lesson_offered) {
    lesson_button(ui);
    ImGui::SameLine();
  }
  if (ImGui::Button(kMenu)) ImGui::OpenPopup("header-menu");
  if (ImGui::BeginPopup("header-menu")) {
    const float width = std::max(ImGui::CalcTextSize(tr("Inputs: shape, scale, mask, Q K V")).x + style.FramePadding.x * 2,
                                 12 * ImGui::GetFontSize());
    if (!history_inline) {
      history_buttons(ui);
    }
    if (!lab::is_experiment_view(s.view)) {
      bool practicing = s.mode == lab::Mode::practice;
      if (ImGui::Checkbox(tr("Practice"), &practicing)) {
        next.mode = practicing ? lab::Mode::practice : lab::Mode::explore;
        ImGui::CloseCurrentPopup();
      }
      // The inputs, from wherever the reader is in the column (layout.cpp opens them and
      // brings them into view).
      if (s.density != lab::Density::compact && ImGui::Button(tr("Inputs: shape, scale, mask, Q K V"), ImVec2(width, 0))) {
        ui.show_inputs = true;
        ImGui::CloseCurrentPopup();
      }
    }
    if (ui.open_data_offered && ImGui::Button(tr("Open data…"), ImVec2(width, 0))) {
      ui.requests.emplace_back(request::OpenData{});
      ImGui::CloseCurrentPopup();
    }
    export_menu(lab, ui);
    switches(next, ui, width);
    ImGui::EndPopup();
  }
  // The view, and the stepper's ← ▶ → beside it (as arrows: the chips below name the steps).
  const bool steps = !lab::is_experiment_view(s.view) &&
                     std::find(s.figure.begin(), s.figure.end(), "steps") == s.figure.end();
  const float arrow_w = std::max(ImGui::GetFrameHeight(), ImGui::CalcTextSize("❚❚").x + style.FramePadding.x * 2);
  const float content_w = right - ImGui::GetWindowContentRegionMin().x;
  const float arrows_w = steps ? 3 * (arrow_w + style.ItemSpacing.x) : 0;
  view_selector(s, next, std::min(view_width(), content_w - arrows_w));
  if (steps) {
    ImGui::SameLine();
    stepper_arrows(s, next, ui, arrow_w);
    step_chips(s, next, ui, true);
  }
  ImGui::PopStyleVar();
  link_notes(ui);
}

// A text field or a dragged value keeps every key (Escape leaves the field). A press on a
// window's empty space is active too (ImGui holds hover there until the release, which it reads
// only at the next frame's start), but it is no control: Space right after a click on a figure's
// margin scrolls the page, and an arrow pressed then moves the query.
bool control_keeps_keys() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const bool window_pressed = g.ActiveIdWindow && g.ActiveId == g.ActiveIdWindow->MoveId;
  return ImGui::GetIO().WantTextInput || (ImGui::IsAnyItemActive() && !window_pressed);
}

}  // namespace

void header(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  ui.header_narrow = false;
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("Attention Lab");
  ImGui::PopFont();
  const char* formula = kFormula;
  const float view_w = view_width();
  // The palette says which theme is on screen (theme=auto follows the system).
  const char* theme_label = palette().dark ? tr("☀ Light") : tr("☾ Dark");
  const char* lang_label = i18n::language() == i18n::Lang::es ? "English" : "Español";
  const ImGuiStyle& style = ImGui::GetStyle();
  // The front door for a student: the guided lesson, one tap from the lab. First of the
  // buttons on the right.
  const float lesson_w = ui.lesson_offered ? ImGui::CalcTextSize(tr(kLesson)).x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  const float buttons_w = view_w + ImGui::CalcTextSize(theme_label).x + ImGui::CalcTextSize(lang_label).x +
                          style.FramePadding.x * 4 + style.ItemSpacing.x * 4 + export_button_width() +
                          about_button_width() + history_buttons_width() + lesson_w;
  const float buttons_x = ImGui::GetWindowContentRegionMax().x - buttons_w;
  const float content_w = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
  // Where the buttons would not fit on a line of their own (a phone, an upright tablet).
  if (buttons_w > content_w) return narrow_header(lab, next, ui);
  // The formula beside the title when it fits between the title and the switches, otherwise
  // on a line of its own (a narrow embed).
  const float formula_w = ImGui::CalcTextSize(formula).x + style.ItemSpacing.x * 3;
  const bool formula_beside = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + formula_w < buttons_x;
  if (formula_beside) {
    ImGui::SameLine(0, style.ItemSpacing.x * 2);
    ImGui::TextColored(palette().muted_text, "%s", formula);
  }
  // The buttons at the right of the title line, or on a line of their own where they would
  // cover the title (a narrow embed).
  if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x <= buttons_x) ImGui::SameLine(buttons_x);
  if (ui.lesson_offered) {
    lesson_button(ui);
    ImGui::SameLine();
  }
  history_buttons(ui);
  ImGui::SameLine();
  export_menu(lab, ui);
  ImGui::SameLine();
  view_selector(s, next, std::min(view_w, content_w));
  ImGui::SameLine();
  switches(next, ui, 0);
  if (!formula_beside) ImGui::TextColored(palette().muted_text, "%s", formula);

  // The stepper: the walkthrough's and compare's (an experiment has its own controls), unless a
  // figure shows it as a part of its own.
  const bool own_part = std::find(s.figure.begin(), s.figure.end(), "steps") != s.figure.end();
  if (!lab::is_experiment_view(s.view) && !own_part) stepper(s, next, ui);
  link_notes(ui);
}

void stepper(const lab::State& s, lab::State& next, Memory& ui) {
  stepper_arrows(s, next, ui);
  step_chips(s, next, ui, false);
  // Practice mode: a question about the screen beside the walkthrough (the side panel).
  bool practicing = s.mode == lab::Mode::practice;
  const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(tr("Practice")).x;
  if (ImGui::GetItemRectMax().x + 24.0f * ui_scale() + box < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine(0, 24.0f * ui_scale());
  if (ImGui::Checkbox(tr("Practice"), &practicing)) next.mode = practicing ? lab::Mode::practice : lab::Mode::explore;
}

// Ignored URL keys and values: visible, dismissible, never fatal.
void link_notes(Memory& ui) {
  if (!ui.notes.empty()) {
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().note);
    // The child's height is its content's (ImGui 1.86 has no auto-resizing child): each note as
    // wrapped at the banner's width, then Dismiss, a button a finger can hit.
    std::vector<std::string> lines;
    for (const std::string& note : ui.notes) lines.push_back(i18n::format(tr("This link: %s."), note.c_str()));
    const float wrap = ImGui::GetContentRegionAvail().x - st.WindowPadding.x * 2;
    float h = st.WindowPadding.y * 2 + ImGui::GetFrameHeight();
    for (const std::string& line : lines) h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + st.ItemSpacing.y;
    ImGui::BeginChild("notes", ImVec2(0, h), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    for (const std::string& line : lines) ImGui::TextWrapped("%s", line.c_str());
    if (ImGui::Button(tr("Dismiss"))) ui.notes.clear();
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
  if (keys.empty() || control_keeps_keys()) return;
  // Undo and redo wherever the focus is; the other keys are the zones'.
  const auto history_key = [](Memory::Key key) { return key == Memory::Key::undo || key == Memory::Key::redo; };
  for (Memory::Key key : keys)
    if (history_key(key)) ui.requests.emplace_back(request::History{key == Memory::Key::undo ? -1 : 1});
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
      case Memory::Key::space:
        if (ui.play_shown) toggle_play(lab.state(), next, ui);
        break;
      case Memory::Key::enter:
      case Memory::Key::escape:
      case Memory::Key::undo:  // taken above
      case Memory::Key::redo: break;
    }
  }
}

bool uses_key(const lab::Lab& lab, const Memory& ui, const std::string& key, bool command) {
  if (control_keeps_keys()) return true;
  // The modifiers' own presses: ImGui knows Ctrl or Shift is held only from them (Ctrl+Z,
  // Shift+Tab), and alone they do nothing.
  if (key == "Control" || key == "Shift" || key == "Alt" || key == "Meta") return true;
  if (command) return key == "z" || key == "Z" || key == "y" || key == "Y";  // undo, redo
  if (key == "ArrowLeft" || key == "ArrowRight" || key == "ArrowUp" || key == "ArrowDown" || key == "Enter" ||
      key == "Tab")
    return true;
  if (key == " ") return lab.state().view == lab::View::train || ui.play_shown;
  // Escape leaves the heatmap's cells for the stepper; from the stepper it leaves the lab.
  if (key == "Escape") return ui.focus == Memory::Focus::cells && ui.show_focus;
  return false;
}

}  // namespace ui
