// Experiment "gradients": the backward pass stage by stage, and what saturation does to it.
// The toy loss is L = Σ O ⊙ C with a fixed random C (n × d_v), so dL/dO = C: a loss whose
// gradient does not depend on the output, which isolates what the softmax does to it.
#pragma once

#include <cstdint>
#include <vector>

#include "reference.h"

namespace experiments {

// The problem's size: n queries and n keys (selected_query below n).
inline constexpr int kGradientsN = 8;

struct GradientsData {
  float scale_multiplier = 1;  // the scale is scale_multiplier / √d_k
  float scale = 1;
  std::uint32_t seed = 0;
  int selected_query = 0;
  int n = 0, dk = 0, dv = 0;  // self-attention: n queries, n keys, N(0, 1) entries

  // One forward and backward pass at this scale (rows: queries, columns: keys, or features).
  attn::Matrix scores;     // S = scale · Q Kᵀ, the softmax's input (n × n)
  attn::Matrix weights;    // A                         (n × n)
  attn::Matrix d_output;   // dO = C                    (n × d_v)
  attn::Matrix d_weights;  // dA = dO Vᵀ                (n × n)
  attn::Matrix d_scores;   // dS = A ⊙ (dA − rowsum(dA ⊙ A))   (n × n)
  attn::Matrix d_q;        // scale · dS K              (n × d_k)
  attn::Matrix d_k;        // scale · dSᵀ Q             (n × d_k)
  attn::Matrix d_v;        // Aᵀ dO                     (n × d_v)
  // ∂a_i/∂s_j of the selected query's softmax row, diag(a) − a aᵀ   (n × n, symmetric)
  attn::Matrix jacobian;

  // max|x| of each matrix above at multiplier 1 (the usual 1/√d_k), same problem and row: the
  // colour scale the maps keep as the multiplier changes, so saturation shows as maps fading.
  struct Largest {
    float d_output = 0, d_weights = 0, d_scores = 0, d_q = 0, d_k = 0, d_v = 0, jacobian = 0;
  } at_one;

  // The same problem as the multiplier grows (rows: sweep points, x axis logarithmic).
  std::vector<float> sweep_multiplier;
  attn::Matrix key_grad_norm;       // ‖dK_j‖ per key j            (sweep × n)
  attn::Matrix key_score_grad;      // Σ_i |dS_ij| per key j       (sweep × n)
  std::vector<double> max_weight;   // mean over queries of the largest weight: 1 = saturated
  std::vector<double> d_scores_norm;  // ‖dS‖ (Frobenius): the signal left after the softmax
  std::vector<double> d_q_norm, d_k_norm;  // ‖dQ‖ and ‖dK‖ (Frobenius)
};

// scale_multiplier > 0 and 0 <= selected_query < the problem's n; throws
// std::invalid_argument otherwise.
GradientsData gradients(float scale_multiplier, std::uint32_t seed, int selected_query);

}  // namespace experiments
