// The reference forward and backward passes, written to read like the math.
#include "reference.h"

#include <cmath>

#include "half.h"
#include "portable_exp.h"

namespace attn {

namespace {

using ConstMap = Eigen::Map<const Matrix>;

ConstMap head_of(const float* base, int rows, int cols, std::size_t index) {
  return ConstMap(base + index * std::size_t(rows) * cols, rows, cols);
}

// Stores one stage's result at the options' precision: under float16 every entry is rounded
// to the nearest half, which is where the float16 experiments overflow and lose digits.
float stored(float x, const Options& o) { return o.precision == Precision::float16 ? round_to_half(x) : x; }

template <class M>
void store(M&& m, const Options& o) {
  if (o.precision == Precision::float16) m = m.unaryExpr([](float x) { return round_to_half(x); });
}

}  // namespace

std::vector<float> Trace::gather(Matrix HeadTrace::*field) const {
  std::vector<float> out;
  for (const HeadTrace& h : heads) {
    const Matrix& m = h.*field;
    out.insert(out.end(), m.data(), m.data() + m.size());
  }
  return out;
}

Trace reference_forward(const Inputs& in, const Options& opt) {
  const Shape& s = in.shape;
  Trace trace;
  trace.shape = s;
  trace.heads.reserve(std::size_t(s.batch) * s.heads);
  for (int b = 0; b < s.batch; ++b) {
    for (int h = 0; h < s.heads; ++h) {
      HeadTrace t;
      t.batch = b;
      t.head = h;
      t.kv_head = s.kv_head_of(h);
      const auto Q = head_of(in.q, s.nq, s.dk, std::size_t(b) * s.heads + h);
      const auto K = head_of(in.k, s.nk, s.dk, std::size_t(b) * s.kv_heads + t.kv_head);
      const auto V = head_of(in.v, s.nk, s.dv, std::size_t(b) * s.kv_heads + t.kv_head);

      // 1. Raw scores: how well each query matches each key.        (nq × dk)(dk × nk)
      t.raw = Q * K.transpose();
      store(t.raw, opt);

      // 2. Scale, so the scores' variance does not grow with d_k.
      t.scaled = t.raw * opt.scale;
      store(t.scaled, opt);

      // 3. Mask: add 0 where a key may be attended, the fill (−∞) where it may not.
      t.mask.resize(s.nq, s.nk);
      for (int i = 0; i < s.nq; ++i)
        for (int j = 0; j < s.nk; ++j) t.mask(i, j) = mask_term(s, opt, b, h, i, j);
      store(t.mask, opt);  // in float16, −1e9 is already −∞
      t.masked = t.scaled + t.mask;
      store(t.masked, opt);

      // 4. Softmax of each row. The stable form subtracts the row maximum so no exponent is
      //    positive; a row whose maximum is −∞ has no key left and gets all-zero weights.
      t.row_max.resize(s.nq);
      t.exps.resize(s.nq, s.nk);
      t.row_sum.resize(s.nq);
      t.weights.resize(s.nq, s.nk);
      for (int i = 0; i < s.nq; ++i) {
        const float m = opt.softmax == Softmax::stable ? t.masked.row(i).maxCoeff() : 0.0f;
        t.row_max(i) = m;
        if (opt.softmax == Softmax::stable && m == kNegInf) {
          t.exps.row(i).setZero();
          t.row_sum(i) = 0.0f;
          t.weights.row(i).setZero();
          continue;
        }
        t.exps.row(i) = portable_exp(t.masked.row(i).array() - m).matrix();
        store(t.exps.row(i), opt);
        t.row_sum(i) = stored(t.exps.row(i).sum(), opt);
        t.weights.row(i) = t.exps.row(i) / t.row_sum(i);
        store(t.weights.row(i), opt);
      }

      // 5. Output: each query's weighted average of the value rows.  (nq × nk)(nk × dv)
      t.output = t.weights * V;
      store(t.output, opt);
      trace.heads.push_back(std::move(t));
    }
  }
  return trace;
}

Gradients reference_backward(const Inputs& in, const Options& opt, const Trace& trace,
                             const float* grad_output) {
  const Shape& s = in.shape;
  Gradients g;
  g.dq.assign(s.q_size(), 0.0f);
  g.dk.assign(s.k_size(), 0.0f);
  g.dv.assign(s.v_size(), 0.0f);
  for (const HeadTrace& t : trace.heads) {
    const std::size_t qi = std::size_t(t.batch) * s.heads + t.head;
    const std::size_t kvi = std::size_t(t.batch) * s.kv_heads + t.kv_head;
    const auto Q = head_of(in.q, s.nq, s.dk, qi);
    const auto K = head_of(in.k, s.nk, s.dk, kvi);
    const auto V = head_of(in.v, s.nk, s.dv, kvi);
    const Matrix& A = t.weights;

    HeadGrads hg;
    hg.d_output = head_of(grad_output, s.nq, s.dv, qi);
    // O = A V  →  dA = dO Vᵀ,  dV = Aᵀ dO
    hg.d_weights = hg.d_output * V.transpose();
    hg.d_v = A.transpose() * hg.d_output;
    // A_i = softmax(S_i)  →  dS_ij = A_ij (dA_ij − Σ_k dA_ik A_ik)
    const Vector dot = (hg.d_weights.array() * A.array()).rowwise().sum().matrix();
    hg.d_scores = (A.array() * (hg.d_weights.colwise() - dot).array()).matrix();
    // S = scale · Q Kᵀ  →  dQ = scale · dS K,  dK = scale · dSᵀ Q
    hg.d_q = opt.scale * hg.d_scores * K;
    hg.d_k = opt.scale * hg.d_scores.transpose() * Q;

    Eigen::Map<Matrix>(g.dq.data() + qi * s.nq * s.dk, s.nq, s.dk) = hg.d_q;
    Eigen::Map<Matrix>(g.dk.data() + kvi * s.nk * s.dk, s.nk, s.dk) += hg.d_k;
    Eigen::Map<Matrix>(g.dv.data() + kvi * s.nk * s.dv, s.nk, s.dv) += hg.d_v;
    g.heads.push_back(std::move(hg));
  }
  return g;
}

}  // namespace attn
