// The tiled kernel's online softmax walked one query row and one key tile at a time, with
// every state of the recurrence recorded, so the lesson can show it step by step. It is the
// recurrence of tiled.cpp without the blocking and the SIMD:
//   m' = max(m, max_j s_j),   c = e^(m − m'),
//   l' = l·c + Σ_j e^(s_j − m'),   o' = o·c + Σ_j e^(s_j − m') v_j,
// and the output row is o / l after the last tile (0 when l = 0: every key was blocked).
#pragma once

#include <cstdint>
#include <vector>

#include "reference.h"

namespace attn {

struct OnlineSoftmaxWalk {
  int tile = 0, tiles = 0;  // keys per tile; tiles = ⌈n_k / tile⌉
  // Rows: query rows; columns: key tiles. Each entry is the state after that tile.
  Matrix tile_max;     // max_j s_j over the tile's keys (−∞ when all are blocked)
  Matrix running_max;  // m'
  Matrix rescale;      // c: the factor the earlier sum and output shrink by (1 while no key is seen)
  Matrix running_sum;  // l'
  std::vector<Matrix> partial_output;  // per tile: o' for every query row, unnormalised (n_q × d_v)
  Matrix output;       // o / l                                                      (n_q × d_v)
};

// Walks head (batch, head) of the inputs. Scale, causal alignment, mask and mask fill come
// from the options; the softmax is always the max-subtracted one (that is the recurrence) in
// float32. tile >= 1.
OnlineSoftmaxWalk online_softmax_walk(const Inputs& in, const Options& opt, int tile, int batch = 0, int head = 0);

// The floats the walk holds at once besides its inputs and output: a K tile and a V tile,
// the tile's scores and the row's m, l and o. The score matrix never exists.
std::int64_t online_walk_working_floats(int tile, int dk, int dv);

}  // namespace attn
