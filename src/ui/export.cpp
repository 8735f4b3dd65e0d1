// [SECTION] file contents (CSV, JSON, embed code), [SECTION] making an export,
// [SECTION] the Export menu.
#include "export.h"

#include <imgui.h>

#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include "explain.h"
#include "figure.h"
#include "i18n.h"
#include "number_text.h"
#include "theme.h"
#include "ui.h"
#include "input/item_layout.h"

namespace ui {
namespace {

std::string csv_number(float x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  return text::significant(x, 9);  // 9 digits: reads back as the same float
}

std::string html_attribute(const std::string& value) {
  std::string out;
  for (char c : value) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out += c;
    }
  }
  return out;
}

// Where the configuration opens again: the page's address in the browser, the desktop app's
// --state option natively.
std::string configuration_link(const lab::State& state) {
  const std::string fragment = lab::to_fragment(state);
#ifdef __EMSCRIPTEN__
  return std::string(emscripten_run_script_string("location.href.replace(/#.*$/, '')")) + "#" + fragment;
#else
  return "attention-lab --state '" + fragment + "'";
#endif
}

// The figure a PNG export shows: the current stage's heatmap, or the compared scale in use,
// as last drawn (its colours and labels) with the matrix it shows now; or why there is none.
std::string shown_figure(const lab::Lab& lab, const Memory& ui, Figure& figure) {
  const lab::State& s = lab.state();
  const HeatmapSpec* shown = nullptr;
  const attn::Matrix* values = nullptr;
  if (s.view == lab::View::walkthrough) {
    if (int(s.step) >= first_hidden_step(lab)) return tr("This stage is hidden until you answer the practice question.");
    shown = ui.stage_views[int(s.step)].shown();
    values = &stage_values(lab, s.step);
    figure.title = i18n::format(tr("Attention Lab · stage %d: %s"), int(s.step), stage_title(s.step));
    figure.axes = columns_are_keys(s.step)         ? tr("rows: queries · columns: keys")
                  : s.step == lab::Step::input ? tr("rows: queries · columns: dimensions (d_k)")
                                               : tr("rows: queries · columns: dimensions (d_v)");
  } else if (s.view == lab::View::compare) {
    for (int c = 0; c < 3; ++c)
      if (kComparedScales[c].choice == s.scale) {
        shown = ui.compare_views[c].shown();
        values = &lab.weights_with_scale(lab.scale_of(s.scale));
        figure.title = i18n::format(tr("Attention Lab · A = softmax(S · scale), scale %s"), tr(kComparedScales[c].name));
        figure.axes = tr("rows: queries · columns: keys");
      }
  }
  // A heatmap drawn for other values (the frame after a change has not been drawn yet) would
  // give the wrong colours.
  if (!shown || shown->version != lab.version()) return tr("No heatmap on screen to export in this view.");
  figure.spec = *shown;
  figure.spec.values = values;
  figure.spec.dimmed = false;
  figure.link = configuration_link(s);
  return "";
}

}  // namespace

// [SECTION] file contents ------------------------------------------------------------------

std::string matrices_csv(const lab::Lab& lab) {
  const attn::HeadTrace& h = lab.head();
  const std::pair<const char*, const attn::Matrix*> matrices[] = {
      {"q", &lab.q()},         {"k", &lab.k()},           {"v", &lab.v()},
      {"scores", &h.raw},      {"scaled", &h.scaled},     {"masked", &h.masked},
      {"weights", &h.weights}, {"output", &h.output}};
  std::string csv = "matrix,row,col,value\n";
  for (const auto& [name, m] : matrices)
    for (int r = 0; r < m->rows(); ++r)
      for (int c = 0; c < m->cols(); ++c)
        csv += std::string(name) + "," + std::to_string(r) + "," + std::to_string(c) + "," +
               csv_number((*m)(r, c)) + "\n";
  return csv;
}

std::string state_json(const lab::Lab& lab) {
  nlohmann::json state = nlohmann::json::object();
  for (const auto& [key, value] : lab::state_pairs(lab.state(), true)) state[key] = value;
  const nlohmann::json out{{"fragment", lab::to_fragment(lab.state())},
                           {"state", std::move(state)},
                           {"trace", nlohmann::json::parse(lab.trace_json())}};
  return out.dump(2) + "\n";
}

std::string embed_code(const lab::State& state) {
  std::string line = "<attention-lab";
  for (const auto& [key, value] : lab::state_pairs(state))
    if (key != "theme") line += " " + key + "=\"" + html_attribute(value) + "\"";
  line += " theme=\"" + html_attribute(lab::name_of(state.theme)) + "\"></attention-lab>";
  return line;
}

// [SECTION] making an export ---------------------------------------------------------------

ExportMade make_export(const lab::Lab& lab, const Memory& ui, ExportKind kind) {
  switch (kind) {
    case ExportKind::png: {
      Figure figure;
      if (std::string why = shown_figure(lab, ui, figure); !why.empty()) return {{}, {}, why};
      std::vector<unsigned char> rgba;
      int width = 0, height = 0;
      draw_figure(figure, rgba, width, height);
      const lab::State& s = lab.state();
      const std::string name =
          "attention-lab-" + std::string(s.view == lab::View::compare ? "compare" : lab::step_name(s.step)) + ".png";
      return {{name, "image/png", encode_png(rgba, width, height, {{"Title", figure.title}, {"Link", figure.link}})}, {}, {}};
    }
    case ExportKind::csv: return {{"attention-lab-matrices.csv", "text/csv", matrices_csv(lab)}, {}, {}};
    case ExportKind::json: return {{"attention-lab.json", "application/json", state_json(lab)}, {}, {}};
    case ExportKind::embed: return {{}, embed_code(lab.state()), {}};
  }
  return {};
}

// [SECTION] the Export menu -----------------------------------------------------------------

float export_button_width() {
  return ImGui::CalcTextSize(tr("Export ▾")).x + ImGui::GetStyle().FramePadding.x * 2;
}

void export_menu(const lab::Lab& lab, Memory& ui) {
  if (ImGui::Button(tr("Export ▾##export"))) {
    ui.export_message.clear();
    ImGui::OpenPopup("export");
  }
  if (!ImGui::BeginPopup("export")) return;
  const float scale = ui_scale();
  const lab::State& s = lab.state();
  const std::string png = s.view == lab::View::compare ? tr("Heatmap in use (PNG)")
                                              : i18n::format(tr("Heatmap of stage %d (PNG)"), int(s.step));
  const auto item = [&ui](const char* label, ExportKind kind) {
    if (ImGui::Selectable(label, false, ImGuiSelectableFlags_DontClosePopups)) ui.requests.emplace_back(request::Export{kind});
  };
  item(png.c_str(), ExportKind::png);
  item(tr("Matrices Q K V, scores, weights, output (CSV)"), ExportKind::csv);
  item(tr("State and trace (JSON)"), ExportKind::json);
  ImGui::Separator();
  item(tr("Copy embed code"), ExportKind::embed);
  // The line itself, selectable: where the clipboard is refused it can be copied by hand.
  std::string code = embed_code(s);
  ImGui::PushFont(fonts().mono);
  input::next_item(input::ItemKind::text, "embed");
  ImGui::InputTextMultiline("##embed", code.data(), code.size() + 1, ImVec2(420 * scale, ImGui::GetTextLineHeight() * 4),
                            ImGuiInputTextFlags_ReadOnly);
  ImGui::PopFont();
  ImGui::TextColored(palette().muted_text, "%s", tr("Add <script src=\".../embed.js\"></script> once per page."));
  if (!ui.export_message.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 420 * scale);
    ImGui::TextUnformatted(ui.export_message.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndPopup();
}

}  // namespace ui
