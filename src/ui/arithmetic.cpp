// [SECTION] the arithmetic of the current step for the selected query, with live numbers:
// one function per step, each reading the trace.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "combo.h"
#include "explain.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

// Long rows are cut: the panel is for reading, the heatmap shows the rest.
constexpr int kMaxKeys = 12;

void line(const std::string& text) { text_wrapped(text); }

void muted(const std::string& text) {
  ImGui::PushFont(fonts().body);
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  text_wrapped(text);
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// Every key of query i's row in order; of a longer row, the kMaxKeys with the largest weights,
// largest first (the keys the query attends to, wherever they are in the sequence).
template <class Row>
void for_keys(const lab::Lab& lab, int i, Row row) {
  const int nk = lab.state().nk, shown = std::min(nk, kMaxKeys);
  if (shown == nk) {
    for (int j = 0; j < nk; ++j) row(j);
    return;
  }
  const auto weights = lab.head().weights.row(i);
  std::vector<int> keys(std::size_t(nk), 0);
  for (int j = 0; j < nk; ++j) keys[std::size_t(j)] = j;
  std::partial_sort(keys.begin(), keys.begin() + shown, keys.end(),
                    [&](int a, int b) { return weights(a) > weights(b) || (weights(a) == weights(b) && a < b); });
  muted(i18n::format(tr("The %d keys with the largest weights, largest first:"), shown));
  for (int k = 0; k < shown; ++k) row(keys[std::size_t(k)]);
  muted(i18n::format(tr("… and %d more keys, of smaller weights"), nk - shown));
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
    muted(i18n::format(tr("Token %s's embedding x_i is multiplied by each learned matrix: "
                          "q_i = x_i W_Q, k_i = x_i W_K, v_i = x_i W_V. Each entry is a dot product of x_i with a "
                          "column of W."),
                       lab.query_label(i).c_str()));
    line("x" + std::to_string(i) + " = " + vec(lab.x(), i));
  } else if (s.kind == lab::Attention::self) {
    muted(tr("No projections (the lesson's worked example): q_i = k_i = v_i = x_i, so q_i·k_i = |x_i|² is often "
             "the row's largest score and each token leans on itself. With W_Q ≠ W_K it need not."));
  } else if (loaded_self_attention(s)) {
    muted(tr("Self-attention with Q, K and V given directly: the queries, keys and values of one sequence."));
  } else {
    muted(tr("Cross-attention: Q from one sequence, K and V from another, given directly."));
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

void scores_step(const lab::Lab& lab, int i, lab::State& next, Memory& ui) {
  muted(tr("Each score is the dot product of the query row q_i with a key row k_j: how well they align."));
  line("q" + std::to_string(i) + " = " + vec(lab.q(), i));
  ImGui::Spacing();
  for_keys(lab, i, [&](int j) {
    line("S[" + std::to_string(i) + "," + std::to_string(j) + "] = " + dot_terms(lab, i, j) + " = " +
         num(lab.head().raw(i, j)));
  });
  ImGui::Spacing();
  muted(tr("As geometry, q·k = |q| |k| cos θ: a key pointing the way q points scores high (similar, θ near 0°), "
           "one at a right angle scores 0 (unrelated), one pointing away scores below 0 (opposed)."));
  if (lab.state().dk == 2) geometry(lab, next, ui);  // the plane itself, and its arrows to drag
  for_keys(lab, i, [&](int j) { line("k" + std::to_string(j) + ": " + explain_angle(lab, i, j)); });
}

void scale_step(const lab::Lab& lab, int i) {
  muted(tr("Dot products of d_k random terms grow like √d_k; dividing by √d_k keeps their spread near 1 so the "
           "softmax does not saturate."));
  line(i18n::format(tr("scale = %s"), scale_text(lab).c_str()));
  ImGui::Spacing();
  for_keys(lab, i, [&](int j) {
    line(num(lab.head().raw(i, j)) + " × " + num(lab.scale()) + " = " + num(lab.head().scaled(i, j)));
  });
  // The same row under each common scale, computed by the kernel.
  ImGui::Spacing();
  muted(tr("This row's softmax weights under each scale:"));
  for (const NamedScale& named : kComparedScales) {
    const attn::Matrix& w = lab.weights_with_scale(lab.scale_of(named.choice));
    const std::string name = tr(named.name);
    std::string text = name + std::string(8 - std::min(7, chars(name)), ' ');
    for (int j = 0; j < std::min<int>(int(w.cols()), 6); ++j) text += (j ? "  " : "") + num(w(i, j));
    if (w.cols() > 6) text += "  …";
    line(text);
  }
}

void mask_step(const lab::Lab& lab, int i) {
  muted(tr("Masked keys get −∞ added, so exp(−∞) = 0 removes them exactly. (−1 or 0 would only nudge them.)"));
  int kept = 0;
  for_keys(lab, i, [&](int j) {
    const std::string reason = lab.mask_reason(i, j);
    const std::string key = lab.key_label(j);
    if (reason.empty()) line(i18n::format(tr("key %d (%s): kept, %s"), j, key.c_str(), num(lab.head().masked(i, j)).c_str()));
    else line(i18n::format(tr("key %d (%s): −∞, %s"), j, key.c_str(), reason.c_str()));
  });
  // Counted on the masked row (−∞ where removed): no reason strings for hidden keys.
  const auto row = lab.head().masked.row(i);
  for (int j = 0; j < row.size(); ++j) kept += !std::isinf(row(j));
  line(i18n::format(tr("%d of %d keys remain"), kept, lab.state().nk));
  const lab::State& s = lab.state();
  if (!s.pad.empty()) {
    // The kernel masks keys only (PyTorch's key_padding_mask does the same).
    ImGui::Spacing();
    const int length = s.pad[s.batch];
    muted(i >= length ? i18n::format(tr("Query %d is itself padding (this sequence has %d real tokens), yet its row "
                                        "still attends to the real keys: padding masks keys, not queries, as "
                                        "PyTorch's key_padding_mask does. Its output row is simply ignored later."),
                                     i, length)
                      : tr("Padding masks keys, not queries: the padded query rows of this sequence still attend to "
                           "the real keys, as with PyTorch's key_padding_mask; their outputs are ignored later."));
  }
}

void softmax_step(const lab::Lab& lab, int i) {
  const attn::HeadTrace& h = lab.head();
  muted(tr("Subtracting the row maximum first changes nothing mathematically but keeps exp() from overflowing."));
  if (h.row_sum(i) == 0) {
    line(tr("Every key is masked: weights are 0, output is 0 (never NaN)."));
    return;
  }
  line(i18n::format(tr("max m = %s"), num(h.row_max(i)).c_str()));
  for_keys(lab, i, [&](int j) {
    line("exp(" + num(h.masked(i, j)) + " − " + num(h.row_max(i)) + ") = " + num(h.exps(i, j)));
  });
  line(i18n::format(tr("sum Σ = %s"), num(h.row_sum(i)).c_str()));
  ImGui::Spacing();
  for_keys(lab, i, [&](int j) {
    line("A[" + std::to_string(i) + "," + std::to_string(j) + "] = " + num(h.exps(i, j)) + " / " + num(h.row_sum(i)) +
         " = " + num(h.weights(i, j)));
  });
  line(i18n::format(tr("row sum = %s"), num(h.weights.row(i).sum()).c_str()));
}

void output_step(const lab::Lab& lab, int i) {
  const attn::HeadTrace& h = lab.head();
  muted(tr("The output row is the weighted average of the value rows, weighted by this query's attention."));
  for_keys(lab, i, [&](int j) { line(num(h.weights(i, j)) + " × v" + std::to_string(j) + " " + vec(lab.v(), j)); });
  line("O[" + std::to_string(i) + "] = " + vec(h.output, i));
}

}  // namespace

void query_picker(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  // The selected query, changeable here as well as with ↑/↓ and clicks on a heatmap.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("Query"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  const std::string query_shown = std::to_string(s.query) + "  " + lab.query_label(s.query);
  if (begin_combo("##query", query_shown.c_str())) {
    // Only the visible entries become items: the list has up to 2048 queries.
    ImGuiListClipper clipper;
    clipper.Begin(s.nq);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        if (ImGui::Selectable((std::to_string(i) + "  " + lab.query_label(i)).c_str(), i == s.query)) next.query = i;
    end_combo();
  }
  // The hint beside the menu where it fits (it is longer in Spanish), else below it.
  const char* hint = device_hint(ui, N_("↑/↓ query   ←/→ step"), N_("or tap a row of a matrix"));
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(hint).x) ImGui::NewLine();
  ImGui::TextColored(palette().muted_text, "%s", hint);
}

void arithmetic(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  ImGui::PushFont(fonts().heading);
  ImGui::Text(tr("Step %d: %s"), int(s.step), stage_title(s.step));
  ImGui::PopFont();
  // Loaded data says what it is, and which of its rows the arithmetic follows.
  if (!s.source.empty())
    muted(i18n::format(tr("%s, query %d (\"%s\")"), s.source.c_str(), s.query, lab.query_label(s.query).c_str()));
  query_picker(lab, next, ui);
  ImGui::Separator();
  if (int(s.step) >= first_hidden_step(lab)) {
    muted(tr(kHiddenUntilAnswered));
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
