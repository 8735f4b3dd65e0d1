// [SECTION] the arithmetic of the current step for the selected query, with live numbers:
// one function per step, each reading the trace.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "explain.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

// Long rows are cut: the panel is for reading, the heatmap shows the rest.
constexpr int kMaxKeys = 12;

void line(const std::string& text) { ImGui::TextWrapped("%s", text.c_str()); }

void muted(const std::string& text) {
  ImGui::PushFont(fonts().body);
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

template <class Row>
void for_keys(const lab::Lab& lab, Row row) {
  const int nk = lab.state().nk, shown = std::min(nk, kMaxKeys);
  for (int j = 0; j < shown; ++j) row(j);
  if (shown < nk) muted("… and " + std::to_string(nk - shown) + " more keys");
}

std::string vec(const attn::Matrix& m, int r) {
  std::string text = "[";
  const int shown = std::min<int>(int(m.cols()), 6);
  for (int c = 0; c < shown; ++c) text += (c ? ", " : "") + num(m(r, c));
  return text + (shown < m.cols() ? ", …]" : "]");
}

void input_step(const lab::Lab& lab, int i) {
  const lab::State& s = lab.state();
  if (s.projected()) {
    muted("Token " + lab.query_label(i) + "'s embedding x_i is multiplied by each learned matrix: "
          "q_i = x_i W_Q, k_i = x_i W_K, v_i = x_i W_V. Each entry is a dot product of x_i with a column of W.");
    line("x" + std::to_string(i) + " = " + vec(lab.x(), i));
  } else if (s.kind == lab::Kind::self) {
    muted("No projections (the lesson's worked example): q_i = k_i = v_i = x_i, so q_i·k_i = |x_i|² is often "
          "the row's largest score and each token leans on itself. With W_Q ≠ W_K it need not.");
  } else {
    muted("Cross-attention: Q from one sequence, K and V from another, given directly.");
  }
  // Each row, and its first entry worked out (the heatmaps' tooltips do any other).
  for (int which = 0; which < 3; ++which) {
    const Projection p = projection(lab, which);
    if (p.result->rows() <= i) continue;  // cross-attention: fewer keys than queries
    ImGui::Spacing();
    line(std::string(1, char(std::tolower(p.name[0]))) + std::to_string(i) + " = " + vec(*p.result, i));
    if (p.w) line(explain_projection(lab, which, i, 0));
  }
}

void scores_step(const lab::Lab& lab, int i, lab::State& next, Ui& ui) {
  muted("Each score is the dot product of the query row q_i with a key row k_j: how well they align.");
  line("q" + std::to_string(i) + " = " + vec(lab.q(), i));
  ImGui::Spacing();
  for_keys(lab, [&](int j) {
    line("S[" + std::to_string(i) + "," + std::to_string(j) + "] = " + dot_terms(lab, i, j) + " = " +
         num(lab.head().raw(i, j)));
  });
  ImGui::Spacing();
  muted("As geometry, q·k = |q| |k| cos θ: a key pointing the way q points scores high (similar, θ near 0°), "
        "one at a right angle scores 0 (unrelated), one pointing away scores below 0 (opposed).");
  if (lab.state().dk == 2) geometry(lab, next, ui);  // the plane itself, and its arrows to drag
  for_keys(lab, [&](int j) { line("k" + std::to_string(j) + ": " + explain_angle(lab, i, j)); });
}

void scale_step(const lab::Lab& lab, int i) {
  muted("Dot products of d_k random terms grow like √d_k; dividing by √d_k keeps their spread near 1 so the "
        "softmax does not saturate.");
  line("scale = " + scale_text(lab));
  ImGui::Spacing();
  for_keys(lab, [&](int j) {
    line(num(lab.head().raw(i, j)) + " × " + num(lab.scale()) + " = " + num(lab.head().scaled(i, j)));
  });
  // The same row under each common scale, computed by the kernel.
  ImGui::Spacing();
  muted("This row's softmax weights under each scale:");
  for (const NamedScale& named : kComparedScales) {
    const attn::Matrix& w = lab.weights_with_scale(lab.scale_of(named.choice));
    const std::string name = named.name;
    std::string text = name + std::string(8 - std::min<std::size_t>(7, name.size()), ' ');
    for (int j = 0; j < std::min<int>(int(w.cols()), 6); ++j) text += (j ? "  " : "") + num(w(i, j));
    if (w.cols() > 6) text += "  …";
    line(text);
  }
}

void mask_step(const lab::Lab& lab, int i) {
  muted("Masked keys get −∞ added, so exp(−∞) = 0 removes them exactly. (−1 or 0 would only nudge them.)");
  int kept = 0;
  for_keys(lab, [&](int j) {
    const std::string reason = lab.mask_reason(i, j);
    const std::string key = "key " + std::to_string(j) + " (" + lab.key_label(j) + "): ";
    if (reason.empty()) line(key + "kept, " + num(lab.head().masked(i, j)));
    else line(key + "−∞, " + reason);
  });
  // Counted on the masked row (−∞ where removed): no reason strings for hidden keys.
  const auto row = lab.head().masked.row(i);
  for (int j = 0; j < row.size(); ++j) kept += !std::isinf(row(j));
  line(std::to_string(kept) + " of " + std::to_string(lab.state().nk) + " keys remain");
  const lab::State& s = lab.state();
  if (!s.pad.empty()) {
    // The kernel masks keys only (PyTorch's key_padding_mask does the same).
    ImGui::Spacing();
    const int length = s.pad[s.batch];
    muted(i >= length ? "Query " + std::to_string(i) + " is itself padding (this sequence has " + std::to_string(length) +
                            " real tokens), yet its row still attends to the real keys: padding masks keys, not "
                            "queries, as PyTorch's key_padding_mask does. Its output row is simply ignored later."
                      : "Padding masks keys, not queries: the padded query rows of this sequence still attend to "
                        "the real keys, as with PyTorch's key_padding_mask; their outputs are ignored later.");
  }
}

void softmax_step(const lab::Lab& lab, int i) {
  const attn::HeadTrace& h = lab.head();
  muted("Subtracting the row maximum first changes nothing mathematically but keeps exp() from overflowing.");
  if (h.row_sum(i) == 0) {
    line("Every key is masked: weights are 0, output is 0 (never NaN).");
    return;
  }
  line("max m = " + num(h.row_max(i)));
  for_keys(lab, [&](int j) {
    line("exp(" + num(h.masked(i, j)) + " − " + num(h.row_max(i)) + ") = " + num(h.exps(i, j)));
  });
  line("sum Σ = " + num(h.row_sum(i)));
  ImGui::Spacing();
  for_keys(lab, [&](int j) {
    line("A[" + std::to_string(i) + "," + std::to_string(j) + "] = " + num(h.exps(i, j)) + " / " + num(h.row_sum(i)) +
         " = " + num(h.weights(i, j)));
  });
  line("row sum = " + num(h.weights.row(i).sum()));
}

void output_step(const lab::Lab& lab, int i) {
  const attn::HeadTrace& h = lab.head();
  muted("The output row is the weighted average of the value rows, weighted by this query's attention.");
  for_keys(lab, [&](int j) { line(num(h.weights(i, j)) + " × v" + std::to_string(j) + " " + vec(lab.v(), j)); });
  line("O[" + std::to_string(i) + "] = " + vec(h.output, i));
}

}  // namespace

void arithmetic(const lab::Lab& lab, lab::State& next, Ui& ui) {
  const lab::State& s = lab.state();
  ImGui::PushFont(fonts().heading);
  ImGui::Text("Step %d: %s", int(s.step), stage_title(s.step));
  ImGui::PopFont();
  // The selected query, changeable here as well as with ↑/↓ and clicks on a heatmap.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Query");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("##query", (std::to_string(s.query) + "  " + lab.query_label(s.query)).c_str())) {
    // Only the visible entries become items: the list has up to 2048 queries.
    ImGuiListClipper clipper;
    clipper.Begin(s.nq);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        if (ImGui::Selectable((std::to_string(i) + "  " + lab.query_label(i)).c_str(), i == s.query)) next.query = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextColored(palette().muted_text, "↑/↓ query   ←/→ step");
  ImGui::Separator();
  if (int(s.step) >= first_hidden_step(lab)) {
    muted(kHiddenUntilAnswered);
    return;
  }
  ImGui::PushFont(fonts().mono);
  switch (s.step) {
    case lab::Step::input: input_step(lab, s.query); break;
    case lab::Step::scores: scores_step(lab, s.query, next, ui); break;
    case lab::Step::scale: scale_step(lab, s.query); break;
    case lab::Step::mask: mask_step(lab, s.query); break;
    case lab::Step::softmax: softmax_step(lab, s.query); break;
    case lab::Step::output: output_step(lab, s.query); break;
  }
  ImGui::PopFont();
}

}  // namespace ui
