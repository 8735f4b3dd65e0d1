// [SECTION] the window layout: header on top; inputs | stages | arithmetic side by side on a
// wide window tall enough for them, stacked in one scrolling column in a narrow or short one (a
// notebook's output), whose height (ui.content_height) the host may size its frame to. Panels
// never overlap.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>
#include <utility>

#include "i18n.h"
#include "measured_card.h"
#include "theme.h"
#include "ui.h"
#include "wrap.h"
#include "input/item_layout.h"

namespace ui {

namespace {
constexpr float kMaxFigureWidth = 1400;  // CSS pixels: a wider column centres the figure
// Side by side, the stage cards share the window's height: below this many unscaled pixels a
// card's heatmap would be a flat strip (a 560 px notebook output, 1280 px wide, gave 64 rows
// 51 px), and the one scrolling column, where each card is as tall as its matrix needs, is
// the better use of the room.
constexpr float kLeastSideBySideCard = 200;

// Whether the stage cards, side by side in the middle panel `width` wide, each get a readable
// height out of `height`.
bool side_by_side_fits(const lab::Lab& lab, float width, float height) {
  const StageGrid grid = stage_grid(lab, width);  // the most rows stages() may choose
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  return (height - gap * float(grid.rows - 1)) / float(grid.rows) >= kLeastSideBySideCard * ui_scale();
}

// A new view starts at its top: every region of the window scrolls back (ImGui keeps each
// child's scroll by its name, and views share names).
void scroll_all_to_top(Memory& ui) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* w : g.Windows)
    if (!(w->Flags & ImGuiWindowFlags_Popup)) ImGui::SetScrollY(w, 0), ImGui::SetScrollX(w, 0);
  ui.requests.emplace_back(request::DrawAgain{});  // the scroll applies when the regions begin again
}

// Whether the step or the query changed since the last frame: its card comes into view. Not
// while a control is held: dragging an arrow of the geometry plane selects its query, and the
// plane must stay under the finger.
bool moved_to_another_step(const lab::State& s, Memory& ui) {
  const bool moved = ui.shown_step != int(s.step) || ui.shown_query != s.query;
  ui.shown_step = int(s.step);
  ui.shown_query = s.query;
  return moved && !ImGui::IsAnyItemActive();
}

// A narrow window (a phone, a tablet): one scrolling column and nothing scrolling inside it.
// The formula (where the header had no room for it), the stages with the explanation of the
// current step right under its card (its row of cards, on a tablet), then the inputs. A new
// step or query brings its card and explanation to the column's top; the ☰ menu's "Inputs"
// opens the inputs and brings them there.
template <class Question>
void column(const lab::Lab& lab, lab::State& next, Memory& ui, ImVec2 avail, Question question) {
  const lab::State& s = lab.state();
  const float scale = ui_scale();
  // Practice mode keeps its question, above the stages, in view.
  const bool bring = moved_to_another_step(s, ui) && s.mode != lab::Mode::practice;
  const float above = ImGui::GetCursorPosY();
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
    // The comparison takes a share of the window's height, unless the window takes the
    // content's (fit_content): then a share of it would grow with every frame the host resized.
    compare_scales(lab, next, ui, ui.fit_content ? 420 * scale : std::max(avail.y * 0.62f, 420 * scale));
    explanation();
  } else if (s.step == lab::Step::input) {
    if (bring) ImGui::SetScrollY(0.0f), ui.requests.emplace_back(request::DrawAgain{});
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
  ui.content_height = above + ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
  ImGui::EndChild();
}

}  // namespace

void scroll_to_here(Memory& ui) {
  ImGui::SetScrollY(std::max(0.0f, ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y));
  ui.requests.emplace_back(request::DrawAgain{});  // the scroll applies when the region begins again
}

const char* device_hint(const Memory& ui, const char* pointer, const char* touch) {
  return tr(ui.touch_screen ? touch : pointer);
}

namespace {

// The width TextWrapped wraps at: to the pushed wrap position, or (none pushed: -1) the
// content region's edge (0).
float wrap_width() {
  const float pushed = ImGui::GetCurrentWindow()->DC.TextWrapPos;
  return ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), pushed < 0 ? 0.0f : pushed);
}

float text_width(std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; }

// The width of the widest word of `text` (words between spaces), in the current font.
float widest_word(std::string_view text) {
  float widest = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    widest = std::max(widest, text_width(text.substr(at, end - at)));
    at = end + 1;
  }
  return widest;
}

}  // namespace

void text_wrapped(std::string_view text) {
  const std::string lines = text::wrap_at_spaces(text, wrap_width(), text_width);
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
}

float text_wrapped_height(std::string_view text, float width) {
  const std::string lines = text::wrap_at_spaces(text, width, text_width);
  return ImGui::CalcTextSize(lines.data(), lines.data() + lines.size()).y + ImGui::GetStyle().ItemSpacing.y;
}

namespace {

// Pushes the heading font for `title`, unless a word of it is wider than `width` (a formula such
// as e^(m−m') over a phone's narrow map would be cut at the card's edge): then the body font
// stays. True when pushed (to be popped).
bool push_heading_font(std::string_view title, float width) {
  ImGui::PushFont(fonts().heading);
  const bool fits = widest_word(title) <= width;
  if (!fits) ImGui::PopFont();
  return fits;
}

}  // namespace

void heading(std::string_view title) {
  const bool pushed = push_heading_font(title, wrap_width());
  text_wrapped(title);
  if (pushed) ImGui::PopFont();
}

float heading_height(std::string_view title, float width) {
  const bool pushed = push_heading_font(title, width);
  const float height = text_wrapped_height(title, width);
  if (pushed) ImGui::PopFont();
  return height;
}

void table_column_wrapped(const char* name, float content_w) {
  ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthStretch, std::max(widest_word(name), content_w));
}

void table_headers_wrapped() {
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ImGui::TableGetColumnCount(); ++c) {
    ImGui::TableSetColumnIndex(c);
    const char* name = ImGui::TableGetColumnName(c);
    text_wrapped(name);
    // Where tests can see whether it fits its column (the text's box, not the column's).
    input::describe_label(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  }
}

namespace {

// The window's panels: a figure's parts, or the whole lab side by side or in one column.
lab::State draw_panels(const lab::Lab& lab, Memory& ui) {
  lab::State next = lab.state();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // No background: the app clears the screen to the window's colour before drawing (main.cpp's
  // present()), and without a GPU a second full-window layer of blended pixels cost a third of
  // view=model's frame (9 of 27 ms at 1280 × 800 in headless Chromium's SwiftShader).
  const ImGuiWindowFlags window = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBackground |
                                  ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (lab.state().is_figure()) {
    // A figure is as tall as its parts (the page sizes the canvas to ui.figure_height): it
    // never scrolls, and its width never depends on its height.
    const float width = std::min(vp->Size.x, kMaxFigureWidth * ui_scale());
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + (vp->Size.x - width) / 2, vp->Pos.y));
    ImGui::SetNextWindowSize(ImVec2(width, vp->Size.y));
    ImGui::Begin("Attention Lab", nullptr, window | ImGuiWindowFlags_NoScrollWithMouse);
    figure_mode(lab, next, ui);
    keyboard(lab, next, ui);
    ImGui::End();
    return next;
  }
  ui.figure_height = 0;
  ui.content_height = 0;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin("Attention Lab", nullptr, window);
  if (std::exchange(ui.shown_view, int(lab.state().view)) != int(lab.state().view)) scroll_all_to_top(ui);
  header(lab, next, ui);
  ImGui::Spacing();

  const float scale = ui_scale();
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
  } else if (const float left = compact ? 0 : 270 * scale, right = 390 * scale,
                        middle = avail.x - left - right - gap * (compact ? 1 : 2);
             avail.x >= 1100 * scale && !ui.fit_content && side_by_side_fits(lab, middle, avail.y)) {
    if (!compact) {
      ImGui::BeginChild("inputs", ImVec2(left, avail.y), true, panel);
      inputs(lab, next, ui);
      ImGui::EndChild();
      ImGui::SameLine(0, gap);
    }
    ImGui::BeginChild("stages", ImVec2(middle, avail.y), false);
    if (lab.state().view == lab::View::compare) compare_scales(lab, next, ui, avail.y);
    else if (lab.state().step == lab::Step::input) projections(lab, next, ui, avail.y);
    else stages(lab, next, ui, avail.y, {nullptr, moved_to_another_step(lab.state(), ui)});
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

}  // namespace

Frame draw(const lab::Lab& lab, Memory& ui) {
  ui.requests.clear();
  ui.play_shown = false;  // until the stepper draws its button (step_chips)
  lab::State next = draw_panels(lab, ui);
  if (!ui.play_shown) ui.playing = false;
  return {std::move(next), std::exchange(ui.requests, {})};
}

}  // namespace ui
