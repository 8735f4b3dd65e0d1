#include "online_softmax_walk.h"

#include <algorithm>
#include <cmath>

#include "portable_exp.h"

namespace attn {

OnlineSoftmaxWalk online_softmax_walk(const Inputs& in, const Options& opt, int tile, int batch, int head) {
  const Shape& s = in.shape;
  const int kv = s.kv_head_of(head);
  const Eigen::Map<const Matrix> Q(in.q + (std::size_t(batch) * s.heads + head) * s.nq * s.dk, s.nq, s.dk);
  const Eigen::Map<const Matrix> K(in.k + (std::size_t(batch) * s.kv_heads + kv) * s.nk * s.dk, s.nk, s.dk);
  const Eigen::Map<const Matrix> V(in.v + (std::size_t(batch) * s.kv_heads + kv) * s.nk * s.dv, s.nk, s.dv);

  OnlineSoftmaxWalk w;
  w.tile = tile;
  w.tiles = (s.nk + tile - 1) / tile;
  w.tile_max.resize(s.nq, w.tiles);
  w.running_max.resize(s.nq, w.tiles);
  w.rescale.resize(s.nq, w.tiles);
  w.running_sum.resize(s.nq, w.tiles);
  w.partial_output.assign(w.tiles, Matrix(s.nq, s.dv));
  w.output.resize(s.nq, s.dv);

  for (int i = 0; i < s.nq; ++i) {
    float m = kNegInf, l = 0.0f;
    Eigen::RowVectorXf o = Eigen::RowVectorXf::Zero(s.dv);
    for (int t = 0; t < w.tiles; ++t) {
      const int j0 = t * tile, j1 = std::min(j0 + tile, s.nk);
      // The tile's scores: scaled dot products plus the mask term.
      Eigen::RowVectorXf scores(j1 - j0);
      for (int j = j0; j < j1; ++j)
        scores(j - j0) = opt.scale * Q.row(i).dot(K.row(j)) + mask_term(s, opt, batch, head, i, j);
      const float tile_max = scores.maxCoeff();
      const float m_new = std::max(m, tile_max);
      // While every key so far is blocked (m' = −∞) there is nothing to rescale or add.
      const bool seen = m_new != kNegInf;
      const float c = seen ? std::exp(m - m_new) : 1.0f;
      l *= c;
      o *= c;
      if (seen) {
        const Eigen::RowVectorXf p = portable_exp(scores.array() - m_new).matrix();
        l += p.sum();
        o += p * V.middleRows(j0, j1 - j0);
      }
      m = m_new;
      w.tile_max(i, t) = tile_max;
      w.running_max(i, t) = m;
      w.rescale(i, t) = c;
      w.running_sum(i, t) = l;
      w.partial_output[t].row(i) = o;
    }
    w.output.row(i) = l > 0.0f ? Eigen::RowVectorXf(o / l) : Eigen::RowVectorXf::Zero(s.dv);
  }
  return w;
}

std::int64_t online_walk_working_floats(int tile, int dk, int dv) {
  return std::int64_t(tile) * dk + std::int64_t(tile) * dv + tile + 2 + dv;
}

}  // namespace attn
