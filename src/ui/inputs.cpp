// [SECTION] the inputs: presets, self/cross, sizes and seed, scale, mask, and the Q, K, V
// matrices as editable cells (click and type, or drag).
#include <imgui.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "combo.h"
#include "explain.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"
#include "input/item_layout.h"

namespace ui {
namespace {

// Matrices larger than this are drawn from the seed only: a grid of cells would not fit.
constexpr int kMaxEditable = 12;

void section(const char* title) {
  ImGui::Spacing();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(tr(title));
  ImGui::PopFont();
}

// The width of a number field with − and + buttons whose typing area holds `widest` (its
// largest value): the buttons are a frame's height wide each, larger on a touch screen.
float number_width(const char* widest) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize(widest).x + style.FramePadding.x * 2 + 2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
}

void size_input(const char* label, int& value, int lo, int hi) {
  ImGui::SetNextItemWidth(number_width(std::to_string(hi).c_str()));
  int v = value;
  input::next_item(input::ItemKind::input, tr(label));
  if (ImGui::InputInt(tr(label), &v, 1, 8)) value = std::clamp(v, lo, hi);
}

// One matrix (rows × cols of sequence `batch` in `flat`); on an edit, writes the whole
// typed-in matrix into `target`.
void matrix_editor(const char* name, const std::vector<float>& flat, int batch, int rows, int cols,
                   std::vector<float>& target) {
  ImGui::TextColored(palette().muted_text, "%s  (%d × %d)", name, rows, cols);
  if (rows > kMaxEditable || cols > kMaxEditable) {
    ImGui::TextColored(palette().muted_text, "%s", tr("(too large to edit cell by cell)"));
    return;
  }
  // Every column in the panel where the values still fit (a laptop's 270-pixel panel, a phone),
  // narrower padding first; wider matrices scroll sideways.
  const float gap = 3, avail = ImGui::GetContentRegionAvail().x;
  const float least = ImGui::CalcTextSize("−0.00").x + 4, fit = (avail - gap * float(cols - 1)) / float(cols);
  const float cell_w = std::max(least, std::min(least + ImGui::GetStyle().FramePadding.x * 2 - 4, fit));
  ImGui::PushID(name);
  // Wide matrices scroll sideways inside the panel.
  const float row_h = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::BeginChild("cells", ImVec2(0, row_h * float(rows) + ImGui::GetStyle().ScrollbarSize), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  std::vector<float> values = flat;
  bool edited = false;
  const std::size_t base = std::size_t(batch) * rows * cols;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c) ImGui::SameLine(0, gap);
      ImGui::PushID(r * cols + c);
      ImGui::SetNextItemWidth(cell_w);
      // Drag to change, double-click (or Ctrl+click) to type a value.
      input::next_item(input::ItemKind::drag, std::string(name) + "[" + std::to_string(r) + "," + std::to_string(c) + "]");
      edited |= ImGui::DragFloat("##v", &values[base + std::size_t(r) * cols + c], 0.02f, -100.0f, 100.0f, "%.2f");
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
  if (edited) target = values;
}

// Typed values survive a new shape or seed (lab::Lab::set_state keeps them): this button has
// the seed draw every matrix again.
void seed_button(lab::State& next) {
  std::vector<float>* typed[] = {&next.q, &next.k, &next.v, &next.x, &next.wq, &next.wk, &next.wv};
  if (std::all_of(std::begin(typed), std::end(typed), [](const std::vector<float>* m) { return m->empty(); })) return;
  if (ImGui::Button(tr("use the seed's values")))
    for (std::vector<float>* m : typed) m->clear();
}

}  // namespace

void inputs(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  section(N_("Example"));
  // Your own Q, K, V (docs/loading-data.md): where the inputs are chosen.
  if (ui.open_data_offered && ImGui::Button(tr("Open data…"))) ui.requests.emplace_back(request::OpenData{});
  const lab::Preset* base = lab::find_preset(s.preset);
  const lab::Preset* current = base && lab::shows_preset(*base, s) ? base : nullptr;
  ImGui::SetNextItemWidth(-1);
  const char* preset_shown = current ? tr(current->title) : tr("Custom");
  if (begin_combo("##preset", preset_shown)) {
    for (const lab::Preset& p : lab::presets())
      if (ImGui::Selectable(tr(p.title), current == &p)) next = lab::preset_for(p, s);
    end_combo();
  }
  shape_control(lab, next, ui);
  scale_control(lab, next, ui);
  mask_control(lab, next, ui);
  matrices(lab, next, ui);
}

void shape_control(const lab::Lab& lab, lab::State& next, Memory&) {
  const lab::State& s = lab.state();
  section(N_("Shape"));
  const bool loaded_self = loaded_self_attention(s);
  int kind = loaded_self ? 0 : int(s.kind);
  input::next_item(input::ItemKind::radio);
  if (ImGui::RadioButton(tr("self-attention"), &kind, 0) && !loaded_self) next.kind = lab::Attention::self;
  ImGui::SameLine();
  input::next_item(input::ItemKind::radio);
  if (ImGui::RadioButton(tr("cross"), &kind, 1)) next.kind = lab::Attention::cross;
  if (loaded_self)
    ImGui::TextColored(palette().muted_text, "%s", tr("Q, K, V of one sequence, given (loaded)"));
  else if (s.kind == lab::Attention::self)
    ImGui::TextColored(palette().muted_text, "%s", s.project ? "Q, K, V = X·W_Q, X·W_K, X·W_V" : tr("Q = K = V = X (no W)"));
  size_input(s.kind == lab::Attention::self ? N_("n tokens") : N_("n_q queries"), next.nq, 1, lab::Limits::max_n);
  if (s.kind == lab::Attention::cross) size_input(N_("n_k keys"), next.nk, 1, lab::Limits::max_n);
  size_input("d_k", next.dk, 1, lab::Limits::max_d);
  if (s.kind == lab::Attention::cross) size_input("d_v", next.dv, 1, lab::Limits::max_d);
  int seed = int(s.seed);
  ImGui::SetNextItemWidth(number_width(std::to_string(std::max(seed, 99999)).c_str()));
  input::next_item(input::ItemKind::input, tr("seed"));
  if (ImGui::InputInt(tr("seed"), &seed)) next.seed = std::uint32_t(std::max(seed, 0));
}

void scale_control(const lab::Lab& lab, lab::State& next, Memory&) {
  const lab::State& s = lab.state();
  section(N_("Scale"));
  const char* scales[] = {"1/√d_k", tr("none"), "1/d_k", tr("custom")};
  int sc = int(s.scale);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (combo("##scale", &sc, scales, 4)) next.scale = attn::ScaleMode(sc);
  if (s.scale == attn::ScaleMode::custom) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    input::next_item(input::ItemKind::input, tr("custom"));
    ImGui::InputFloat("##custom", &next.custom_scale, 0, 0, "%.4g");
  }
}

void mask_control(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  section(N_("Mask"));
  const char* causal[] = {tr("no causal mask"), tr("causal (j ≤ i)"), tr("causal, bottom-right")};
  int ca = int(s.causal);
  ImGui::SetNextItemWidth(-1);
  if (combo("##causal", &ca, causal, 3)) next.causal = attn::Causal(ca);
  bool padded = !s.pad.empty();
  if (ImGui::Checkbox(tr("padding (batch of 2)"), &padded))
    next.pad = padded ? std::vector<int>{s.nk, std::max(1, s.nk / 2)} : std::vector<int>{};
  for (std::size_t b = 0; b < s.pad.size(); ++b) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt(i18n::format(tr("length %d"), b).c_str(), &next.pad[b], 0, s.nk);
  }
  if (!s.pad.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
    ImGui::TextWrapped("%s", tr("Padded keys are masked for every query; padded query rows still attend (as with PyTorch's "
                                "key_padding_mask) and their outputs are ignored later."));
    ImGui::PopStyleColor();
  }
  if (s.batches() > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt(tr("shown"), &next.batch, 0, s.batches() - 1);
  }
  ImGui::Checkbox(device_hint(ui, N_("paint: click cells of stage 3"), N_("paint: tap cells of stage 3")), &ui.paint_mask);
  if (!s.blocked.empty() && ImGui::Button(tr("clear painted cells"))) next.blocked.clear();
}

void matrices(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  section(N_("Inputs"));
  if (s.kind == lab::Attention::self) {
    ImGui::Checkbox(tr("projections W_Q, W_K, W_V"), &next.project);
    if (s.projected()) size_input("d_model", next.dmodel, 1, lab::Limits::max_d);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  // Two lines in Spanish.
  ImGui::TextWrapped("%s", device_hint(ui, N_("drag a cell; double-click to type"), N_("drag a cell; double-tap to type")));
  ImGui::PopStyleColor();
  seed_button(next);
  if (s.projected()) {
    matrix_editor("X", lab.flat_x(), s.batch, s.nq, s.dmodel, next.x);
    matrix_editor("W_Q", lab.flat_wq(), 0, s.dmodel, s.dk, next.wq);
    matrix_editor("W_K", lab.flat_wk(), 0, s.dmodel, s.dk, next.wk);
    matrix_editor("W_V", lab.flat_wv(), 0, s.dmodel, s.dv, next.wv);
    return;
  }
  matrix_editor(s.kind == lab::Attention::self ? "X = Q = K = V" : "Q", lab.flat_q(), s.batch, s.nq, s.dk, next.q);
  if (s.kind == lab::Attention::cross) {
    matrix_editor("K", lab.flat_k(), s.batch, s.nk, s.dk, next.k);
    matrix_editor("V", lab.flat_v(), s.batch, s.nk, s.dv, next.v);
  }
}

}  // namespace ui
