// Experiment "tiling": the tiled kernel's online softmax walked tile by tile (running max,
// running sum, rescale factor and partial output for every query row), its result against
// the reference, and the memory the two approaches need as n grows.
#pragma once

#include <cstdint>
#include <vector>

#include "online_softmax_walk.h"

namespace experiments {

inline constexpr int kTilingMaxN = 256;

struct TilingData {
  int n = 0, tile = 0, dk = 0, dv = 0;  // self-attention with scale 1/√d_k, N(0, 1) entries
  std::uint32_t seed = 0;
  attn::OnlineSoftmaxWalk walk;   // rows: queries, columns: tiles (see online_softmax_walk.h)
  attn::Matrix reference_output;  // attn::reference_forward                (n × d_v)
  attn::Matrix tiled_output;      // attn::tiled_forward, the SIMD kernel    (n × d_v)
  float walk_difference = 0;      // max |walk output − reference output|
  float tiled_difference = 0;     // max |tiled kernel output − reference output|
  // Memory of one head as the sequence grows (x axis: memory_n, logarithmic; y: bytes).
  std::vector<int> memory_n;           // 64 … 65536
  std::vector<double> score_bytes;     // the n × n float32 score matrix: 4 n²
  std::vector<double> tiled_bytes;     // the walk's working floats × 4: independent of n
};

// 1 <= n <= kTilingMaxN and 1 <= tile <= n; throws std::invalid_argument otherwise.
TilingData tiling(int n, int tile, std::uint32_t seed);

}  // namespace experiments
