#include "gradients.h"

#include <cmath>
#include <stdexcept>

#include "sampling.h"
#include "stats.h"

namespace experiments {

namespace {

constexpr int kN = kGradientsN, kDk = 16, kDv = 8;

struct Pass {
  attn::HeadTrace trace;
  attn::HeadGrads grads;
};

Pass run(const Problem& p, const std::vector<float>& d_output, float multiplier) {
  attn::Options o;
  o.scale = multiplier / std::sqrt(float(p.shape.dk));
  attn::Trace t = attn::reference_forward(p.inputs(), o);
  attn::Gradients g = attn::reference_backward(p.inputs(), o, t, d_output.data());
  return {std::move(t.heads.front()), std::move(g.heads.front())};
}

// ∂a_i/∂s_j of row i's softmax: diag(a) − a aᵀ.
attn::Matrix jacobian_of(const attn::Matrix& weights, int i) {
  const Eigen::RowVectorXf a = weights.row(i);
  return attn::Matrix(a.asDiagonal()) - a.transpose() * a;
}

}  // namespace

GradientsData gradients(float scale_multiplier, std::uint32_t seed, int selected_query) {
  if (!(scale_multiplier > 0)) throw std::invalid_argument("the scale multiplier must be positive");
  if (selected_query < 0 || selected_query >= kN)
    throw std::invalid_argument("the selected query must be between 0 and " + std::to_string(kN - 1));
  attn::Shape s;
  s.nq = s.nk = kN;
  s.dk = kDk;
  s.dv = kDv;
  const Problem p = random_problem(s, seed);
  const std::vector<float> c = standard_normal(seed, 4, s.out_size());  // the loss's C = dL/dO

  GradientsData d;
  d.scale_multiplier = scale_multiplier;
  d.scale = scale_multiplier / std::sqrt(float(kDk));
  d.seed = seed;
  d.selected_query = selected_query;
  d.n = kN;
  d.dk = kDk;
  d.dv = kDv;
  const Pass here = run(p, c, scale_multiplier);
  d.scores = here.trace.masked;
  d.weights = here.trace.weights;
  d.d_output = here.grads.d_output;
  d.d_weights = here.grads.d_weights;
  d.d_scores = here.grads.d_scores;
  d.d_q = here.grads.d_q;
  d.d_k = here.grads.d_k;
  d.d_v = here.grads.d_v;
  d.jacobian = jacobian_of(d.weights, selected_query);
  const Pass one = run(p, c, 1.0f);
  const auto largest = [](const attn::Matrix& m) { return m.cwiseAbs().maxCoeff(); };
  d.at_one = {largest(one.grads.d_output), largest(one.grads.d_weights), largest(one.grads.d_scores),
              largest(one.grads.d_q),      largest(one.grads.d_k),       largest(one.grads.d_v),
              largest(jacobian_of(one.trace.weights, selected_query))};

  // Multipliers 1/4 … 64 in half-octave steps: from soft rows to fully saturated ones.
  for (int k = -4; k <= 12; ++k) d.sweep_multiplier.push_back(std::exp2(0.5f * k));
  const int points = int(d.sweep_multiplier.size());
  d.key_grad_norm.resize(points, kN);
  d.key_score_grad.resize(points, kN);
  for (int r = 0; r < points; ++r) {
    const Pass pass = run(p, c, d.sweep_multiplier[r]);
    d.key_grad_norm.row(r) = pass.grads.d_k.rowwise().norm().transpose();
    d.key_score_grad.row(r) = pass.grads.d_scores.cwiseAbs().colwise().sum();
    d.max_weight.push_back(mean_row_max(pass.trace.weights));
    d.d_scores_norm.push_back(pass.grads.d_scores.norm());
    d.d_q_norm.push_back(pass.grads.d_q.norm());
    d.d_k_norm.push_back(pass.grads.d_k.norm());
  }
  return d;
}

}  // namespace experiments
