#include "pitfalls.h"

#include <cmath>

#include "sampling.h"

namespace experiments {

namespace {

constexpr int kN = 6, kDk = 16, kDv = 4;

attn::Matrix as_matrix(const std::vector<float>& x, int rows, int cols) {
  return Eigen::Map<const attn::Matrix>(x.data(), rows, cols);
}

PitfallCase compare(const char* name, const Problem& p, const attn::Options& right, const attn::Options& wrong) {
  const attn::HeadTrace r = attn::reference_forward(p.inputs(), right).heads.front();
  const attn::HeadTrace w = attn::reference_forward(p.inputs(), wrong).heads.front();
  PitfallCase c;
  c.name = name;
  c.right = right;
  c.wrong = wrong;
  c.weights_right = r.weights;
  c.weights_wrong = w.weights;
  c.weights_difference = w.weights - r.weights;
  c.output_right = r.output;
  c.output_wrong = w.output;
  c.output_difference = w.output - r.output;
  for (int i = 0; i < w.weights.rows(); ++i) {
    const int future = int(w.weights.cols()) - (i + 1);
    c.future_weight.push_back(w.weights.row(i).tail(future).sum());
    if (w.weights.row(i).hasNaN()) ++c.nan_rows;
  }
  return c;
}

}  // namespace

PitfallsData pitfalls(std::uint32_t seed) {
  attn::Shape s;
  s.nq = s.nk = kN;
  s.dk = kDk;
  s.dv = kDv;
  const Problem p = random_problem(s, seed);
  PitfallsData d;
  d.seed = seed;
  d.n = kN;
  d.dk = kDk;
  d.dv = kDv;
  d.q = as_matrix(p.q, kN, kDk);
  d.k = as_matrix(p.k, kN, kDk);
  d.v = as_matrix(p.v, kN, kDv);

  attn::Options right;
  right.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, kDk);
  right.causal = attn::Causal::top_left;
  const auto changed = [&](auto change) {
    attn::Options o = right;
    change(o);
    return o;
  };
  d.cases.push_back(compare("no_scaling", p, right, changed([](attn::Options& o) { o.scale = 1; })));
  d.cases.push_back(compare("divide_by_dk", p, right,
                            changed([](attn::Options& o) { o.scale = attn::scale_for(attn::ScaleMode::inv_dk, kDk); })));
  d.cases.push_back(compare("fill_minus_one", p, right, changed([](attn::Options& o) { o.mask_fill = -1; })));
  d.cases.push_back(compare("fill_zero", p, right, changed([](attn::Options& o) { o.mask_fill = 0; })));
  d.cases.push_back(compare("no_causal_mask", p, right, changed([](attn::Options& o) { o.causal = attn::Causal::none; })));

  // Left padding: key 0 is a pad, and query 0 may only see key 0 under the causal mask, so
  // the combined masks leave query 0 no key at all. 0/0 under the naive softmax; the stable
  // one gives that row exactly zero weights.
  d.padding_key = 0;
  attn::Options padded = right;
  padded.mask.kind = attn::Mask::Kind::boolean;
  padded.mask.dims = {1, 1, 1, kN};
  padded.mask.values.assign(kN, 1.0f);
  padded.mask.values[std::size_t(d.padding_key)] = 0.0f;
  attn::Options naive = padded;
  naive.softmax = attn::Softmax::naive;
  d.cases.push_back(compare("fully_masked_row", p, padded, naive));
  return d;
}

}  // namespace experiments
