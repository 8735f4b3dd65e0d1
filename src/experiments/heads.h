// Experiment "heads": several heads side by side, their concatenated output, cross-attention
// (n_q ≠ n_k) and grouped-query attention, where several query heads share one K/V head.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "reference.h"

namespace experiments {

struct HeadView {
  int head = 0;     // query head
  int kv_head = 0;  // the K/V head it reads (Shape::kv_head_of)
  attn::Matrix weights;  // (n_q × n_k): rows queries, columns keys
  attn::Matrix output;   // (n_q × d_v)
};

struct HeadsData {
  attn::Shape shape;  // batch 1; scale 1/√d_k, N(0, 1) entries
  std::uint32_t seed = 0;
  bool cross = false;  // n_q ≠ n_k: queries from one sequence, keys and values from another
  // Tensor shapes, axes (batch, heads, n, d), for the labels:
  std::array<int, 4> q_shape{}, k_shape{}, v_shape{}, weights_shape{}, output_shape{};
  std::array<int, 3> concat_shape{};  // (batch, n_q, heads · d_v)
  std::vector<HeadView> heads;
  // Row i is query i's outputs of every head side by side: head h in columns [h·d_v, (h+1)·d_v).
  attn::Matrix concatenated;  // (n_q × heads · d_v)
  std::vector<std::vector<int>> groups;  // per K/V head, the query heads that share it
};

// What fits the view: heads, and each size (n_q, n_k, d_k, d_v).
inline constexpr int kHeadsMaxHeads = 16, kHeadsMaxSize = 64;

// Needs a shape that attn::validate accepts, each size at most kHeadsMaxSize (heads at most
// kHeadsMaxHeads); throws std::invalid_argument otherwise.
HeadsData heads(int heads, int kv_heads, int nq, int nk, int dk, int dv, std::uint32_t seed);

}  // namespace experiments
