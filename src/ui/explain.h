// The arithmetic behind each number of the walkthrough, as text with the live values: used
// by the arithmetic panel (a whole query row) and by heatmap tooltips (one cell). Every
// number comes from the kernel's trace; this file only formats it.
#pragma once

#include <string>
#include <vector>

#include "i18n.h"
#include "lab.h"
#include "number_text.h"

namespace ui {

// The scales the lesson compares: the right one, none, and the pitfall of dividing by d_k.
struct NamedScale {
  attn::ScaleMode choice;
  const char* name;  // a message: shown through tr()
};
inline constexpr NamedScale kComparedScales[] = {
    {attn::ScaleMode::inv_sqrt_dk, "1/√d_k"}, {attn::ScaleMode::none, N_("none")}, {attn::ScaleMode::inv_dk, "1/d_k"}};

// Numbers as the interface prints them (src/text/number_text.h).
using text::chars;
using text::num;
using text::num_fit;
using text::num_rounded;
// Every value of m's block [r0, r1) × [c0, c1) by num_fit, row after row, into `out`; false
// when one cannot fit: a heatmap then writes none, never some cells and not others.
bool nums_fit(const attn::Matrix& m, int r0, int r1, int c0, int c1, int max_chars, std::vector<std::string>& out);

// One cell (i, j) of a stage: how it was computed, in one or two lines.
std::string explain_cell(const lab::Lab& lab, lab::Step stage, int i, int j);

// q_i · k_j written term by term ("1×1 + 0×0"); long sums are shortened with "…".
std::string dot_terms(const lab::Lab& lab, int i, int j);

// Step 0's products: "Q", "K" or "V" and the matrices that make it (W_Q, W_K or W_V; null
// without projections, where Q = K = V = X or, in cross-attention, they are given).
struct Projection {
  const char* name;
  const attn::Matrix* result;
  const attn::Matrix* w;
};
Projection projection(const lab::Lab& lab, int which);  // 0: Q, 1: K, 2: V
// One entry of a projection: "Q[i, c] = x_i · W_Q[:, c] = 1×0.5 + … = 0.7".
std::string explain_projection(const lab::Lab& lab, int which, int i, int c);

// The angle between q_i and k_j, with q·k = |q||k| cos θ: similar, unrelated or opposed.
std::string explain_angle(const lab::Lab& lab, int i, int j);

// The scale factor in words: "1/√d_k = 1/√2 = 0.7071".
std::string scale_text(const lab::Lab& lab);

// Loaded data whose queries and keys are one sequence (the same labels: a model's head on its
// own text): self-attention with Q, K and V given, though held as cross-attention's typed Q, K, V.
bool loaded_self_attention(const lab::State& s);

}  // namespace ui
