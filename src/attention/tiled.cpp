// Tiled forward with online softmax (the flash-attention recurrence), one query row block
// at a time against streamed key tiles.
//
// For each query row i the kernel keeps a running maximum m, a running sum l and an
// unnormalised output o. A new tile of scores s_j updates them as
//   m' = max(m, max_j s_j),  l' = l·e^(m − m') + Σ_j e^(s_j − m'),
//   o' = o·e^(m − m') + Σ_j e^(s_j − m') v_j,
// and the output is o / l once every tile is in (0 when l is 0: every key was blocked).
#include "tiled.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {

namespace {

constexpr int kKeyTile = 64;

// Range of keys [0, end) that a causal alignment leaves visible to query i; tiles past it
// are skipped whole.
int causal_key_end(Causal c, int i, int nq, int nk) {
  switch (c) {
    case Causal::none: return nk;
    case Causal::top_left: return std::clamp(i + 1, 0, nk);
    case Causal::bottom_right: return std::clamp(i + 1 + (nk - nq), 0, nk);
  }
  return nk;
}

}  // namespace

void tiled_forward(const Inputs& in, const Options& opt, float* out) {
  const Shape& s = in.shape;
  std::vector<float> scores(kKeyTile);
  std::vector<float> acc(s.dv);
  for (int b = 0; b < s.batch; ++b) {
    for (int h = 0; h < s.heads; ++h) {
      const int kvh = s.kv_head_of(h);
      const float* Q = in.q + (std::size_t(b) * s.heads + h) * s.nq * s.dk;
      const float* K = in.k + (std::size_t(b) * s.kv_heads + kvh) * s.nk * s.dk;
      const float* V = in.v + (std::size_t(b) * s.kv_heads + kvh) * s.nk * s.dv;
      float* O = out + (std::size_t(b) * s.heads + h) * s.nq * s.dv;
      for (int i = 0; i < s.nq; ++i) {
        const float* q = Q + std::size_t(i) * s.dk;
        const int key_end = causal_key_end(opt.causal, i, s.nq, s.nk);
        float m = kNegInf, l = 0.0f;
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (int j0 = 0; j0 < key_end; j0 += kKeyTile) {
          const int nj = std::min(kKeyTile, key_end - j0);
          // Scores of this tile, scaled and masked, and their maximum.
          float tile_max = kNegInf;
          for (int j = 0; j < nj; ++j) {
            const float* k = K + std::size_t(j0 + j) * s.dk;
            float dot = 0.0f;
            for (int d = 0; d < s.dk; ++d) dot += q[d] * k[d];
            float sc = dot * opt.scale;
            if (!opt.mask.empty()) sc += mask_term(s, opt, b, h, i, j0 + j);
            scores[j] = sc;
            tile_max = std::max(tile_max, sc);
          }
          if (tile_max == kNegInf) continue;  // every key of the tile blocked
          const float m_new = std::max(m, tile_max);
          const float rescale = std::exp(m - m_new);  // e^(−∞) = 0 on the first live tile
          l *= rescale;
          for (float& a : acc) a *= rescale;
          for (int j = 0; j < nj; ++j) {
            const float p = std::exp(scores[j] - m_new);
            l += p;
            const float* v = V + std::size_t(j0 + j) * s.dv;
            for (int d = 0; d < s.dv; ++d) acc[d] += p * v[d];
          }
          m = m_new;
        }
        float* o = O + std::size_t(i) * s.dv;
        const float inv = l > 0.0f ? 1.0f / l : 0.0f;
        for (int d = 0; d < s.dv; ++d) o[d] = acc[d] * inv;
      }
    }
  }
}

}  // namespace attn
