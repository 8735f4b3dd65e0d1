// [SECTION] dispatch, [SECTION] shared pieces.
#include "common.h"

#include <imgui.h>

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "explain.h"
#include "figure_parts.h"
#include "i18n.h"
#include "theme.h"

namespace ui {

// [SECTION] dispatch

namespace {

// The interface's row of the registry of views (lab::kViews): how each view is drawn. nullptr:
// the walkthrough's two, drawn by the layout around the stages. A view missing here, or out of
// order, does not build.
struct Drawing {
  lab::View view;
  void (*draw)(const lab::Lab&, lab::State&, Memory&);
};
constexpr Drawing kDrawings[] = {
    {lab::View::walkthrough, nullptr},       {lab::View::compare, nullptr},
    {lab::View::scaling, views::scaling},    {lab::View::gradients, views::gradients},
    {lab::View::pitfalls, views::pitfalls},  {lab::View::stability, views::stability},
    {lab::View::tiling, views::tiling},      {lab::View::heads, views::heads},
    {lab::View::cost, views::cost},          {lab::View::train, views::train},
    {lab::View::model, views::model},
};
static_assert(lab::in_view_order(kDrawings));

}  // namespace

void experiment(const lab::Lab& lab, lab::State& next, Memory& ui) {
  if (!views::parameters_ok(lab)) return;
  if (const auto draw = kDrawings[std::size_t(lab.state().view)].draw) draw(lab, next, ui);
}

namespace views {

// [SECTION] shared pieces

void sections(const lab::Lab& lab, const Memory& ui, std::initializer_list<Section> list) {
  for (const Section& section : list) {
    assert(lab::is_figure_part(lab.state().view, section.part));  // named in the one table of parts
    if (ui.section.empty() ? !section.figure_only : ui.section == section.part) section.draw();
  }
}

void notice(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

void beside_if_room(float field, const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float label_w = ImGui::CalcTextSize(label, nullptr, true).x;
  const float width = field + (label_w > 0 ? style.ItemInnerSpacing.x + label_w : 0);
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine();
}

void plot_card(Grid& grid, const char* id, float height, const std::string& title, const std::string& note,
               const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<PlotMarker>& markers) {
  // Never lower than keeps the plot area kLeastPlotArea tall under its title and note, however
  // they wrap in a narrow card.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = grid.width() - 2 * style.WindowPadding.x;
  const float least = 2 * style.WindowPadding.y + (title.empty() ? 0 : heading_height(title, inner)) +
                      (note.empty() ? 0 : text_wrapped_height(note, inner)) +
                      plot_height(spec, series, markers, inner, kLeastPlotArea * ui_scale());
  grid.begin(id, std::max(height, least));
  if (!title.empty()) heading(title.c_str());
  if (!note.empty()) notice(note.c_str());
  plot(id, spec, series, markers);
  grid.end();
}

int one_at_a_time(Memory& ui, const char* id, bool narrow, const std::vector<std::string>& names) {
  if (!narrow) return -1;
  ImGui::PushID(id);
  int& one = *ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("shown"), 0);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float gap = style.ItemInnerSpacing.x, avail = ImGui::GetContentRegionAvail().x;  // one control's parts
  // All in one row (with less padding around the names if that makes them fit), in two where a
  // name would not fit its share of one.
  float widest = 0;
  for (const std::string& name : names) widest = std::max(widest, ImGui::CalcTextSize(name.c_str()).x);
  int per_row = int(names.size());
  const auto share = [&] { return (avail - gap * float(per_row - 1)) / float(per_row); };
  const float pad = std::min(style.FramePadding.x, (share() - widest) / 2);
  if (pad < 4 * ui_scale()) per_row = (per_row + 1) / 2;
  const float width = share();
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(std::max(pad, 4 * ui_scale()), style.FramePadding.y));
  for (int i = 0; i < int(names.size()); ++i) {
    if (i % per_row) ImGui::SameLine(0, gap);
    const bool current = i == one;
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
    if (current) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    if (ImGui::Button(names[std::size_t(i)].c_str(), ImVec2(width, 0)) && !current) {
      one = i;
      ui.requests.emplace_back(request::DrawAgain{});  // the card shown changes in the next frame
    }
    if (current) ImGui::PopStyleColor(2);
  }
  ImGui::PopStyleVar();
  ImGui::PopID();
  return one;
}

bool parameters_ok(const lab::Lab& lab) {
  const std::string& error = lab.experiment().error();
  if (error.empty()) return true;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().note);
  const float h = ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::GetStyle().WindowPadding.y * 2;
  ImGui::BeginChild("bad parameters", ImVec2(0, h), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
  // The error is also the experiment's JSON (attentionLab.experiment()), the page's API: it
  // stays in English, and the state keeps the link out of it (fit_view), so it is rarely seen.
  ImGui::TextWrapped(tr("The %s experiment cannot run with these parameters: %s."), lab::name_of(lab.state().view),
                     error.c_str());
  ImGui::EndChild();
  ImGui::PopStyleColor();
  return false;
}

Grid::Grid(int count, float min_width) {
  const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
  const float scale = ui_scale();
  per_row_ = std::clamp(int((avail + gap) / (min_width * scale + gap)), 1, std::max(count, 1));
  width_ = (avail - gap * float(per_row_ - 1)) / float(per_row_);
}

void Grid::begin(const char* id, float height) {
  if (index_++ % per_row_) ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x);
  ImGui::BeginChild(id, ImVec2(width_, height), true,
                    ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NoScrollbar |
                        ImGuiWindowFlags_NoScrollWithMouse);
}

void Grid::end() { ImGui::EndChild(); }

float card_height(float content, int lines) {
  const float scale = ui_scale();
  return content * scale + float(lines) * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y * 2;
}

std::vector<std::string> aligned(std::initializer_list<const char*> names, int gap) {
  int widest = 0;
  for (const char* name : names) widest = std::max(widest, chars(name));
  std::vector<std::string> out;
  for (const char* name : names) out.push_back(name + std::string(std::size_t(widest - chars(name) + gap), ' '));
  return out;
}

Labels indexed(const char* prefix) {
  return [prefix](int i) { return prefix + std::to_string(i); };
}

HeatmapHit map(Memory& ui, const lab::Lab& lab, const char* id, const MapSpec& spec) {
  heading(spec.title.c_str());  // a formula too long for its card wraps at a space rather than being cut
  if (!spec.caption.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
    text_wrapped(spec.caption);
    ImGui::PopStyleColor();
  }
  HeatmapSpec h;
  h.values = spec.values;
  // One HeatmapView may show several matrices of one computation (the pitfalls' cases).
  const std::uint64_t version = spec.version ? spec.version : lab.experiment().version();
  h.version = version * 0x9e3779b97f4a7c15ull ^ std::uint64_t(std::uintptr_t(spec.values));
  h.map = spec.diverging ? render::Colormap::diverging : render::Colormap::sequential;
  h.lo = spec.lo;
  h.hi = spec.hi;
  h.bound = spec.bound;
  h.row_label = spec.rows;
  h.col_label = spec.cols;
  h.highlight_row = spec.highlight_row;
  h.zoom_to_read = spec.zoom_to_read;
  h.picture = spec.picture;
  h.height = spec.height > 0 ? spec.height : ImGui::GetContentRegionAvail().y;
  return ui.experiment_maps[id].draw(id, h);
}

}  // namespace views
}  // namespace ui
