// Random attention problems for property tests: the same problem as the kernel's float
// inputs and as the float64 reference's, with the mask broadcast independently for each.
#pragma once

#include <random>
#include <vector>

#include "attention.h"
#include "float64_attention.h"

namespace testing_ref {

struct RandomProblem {
  attn::Shape shape;
  std::vector<float> q, k, v;
  attn::Options options;
  Problem64 p64;

  attn::Inputs inputs() const { return {shape, q.data(), k.data(), v.data()}; }
};

struct Ranges {
  int max_batch = 2, max_heads = 4, max_n = 40, max_d = 20;
  double magnitude = 1.0;  // spread of q and k entries
  bool masks = true;
};

inline RandomProblem random_problem(std::mt19937& rng, const Ranges& r = {}) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::normal_distribution<float> normal(0.0f, 1.0f);
  RandomProblem p;
  attn::Shape& s = p.shape;
  s.batch = pick(1, r.max_batch);
  s.kv_heads = pick(1, r.max_heads);
  s.heads = s.kv_heads * pick(1, 3);  // sometimes grouped-query
  s.nq = pick(0, 4) == 0 ? 1 : pick(1, r.max_n);
  s.nk = pick(1, r.max_n);
  s.dk = pick(0, 4) == 0 ? 1 : pick(1, r.max_d);
  s.dv = pick(1, r.max_d);
  const auto fill = [&](std::vector<float>& x, std::size_t n, double mag) {
    x.resize(n);
    for (float& e : x) e = float(mag) * normal(rng);
  };
  fill(p.q, s.q_size(), r.magnitude);
  fill(p.k, s.k_size(), r.magnitude);
  fill(p.v, s.v_size(), 1.0);

  attn::Options& o = p.options;
  o.scale = pick(0, 5) == 0 ? std::uniform_real_distribution<float>(0.0f, 2.0f)(rng)
                            : 1.0f / std::sqrt(float(s.dk));
  o.causal = attn::Causal(pick(0, 2));

  Problem64& d = p.p64;
  d.batch = s.batch; d.heads = s.heads; d.kv_heads = s.kv_heads;
  d.nq = s.nq; d.nk = s.nk; d.dk = s.dk; d.dv = s.dv;
  d.q.assign(p.q.begin(), p.q.end());
  d.k.assign(p.k.begin(), p.k.end());
  d.v.assign(p.v.begin(), p.v.end());
  d.scale = o.scale;
  d.causal_offset_enabled = int(o.causal);

  if (r.masks && pick(0, 2) != 0) {
    // A mask of random rank and broadcast pattern: boolean (padding-like) or additive.
    const bool boolean = pick(0, 1) == 0;
    const int full[4] = {s.batch, s.heads, s.nq, s.nk};
    attn::Mask& m = o.mask;
    m.kind = boolean ? attn::Mask::Kind::boolean : attn::Mask::Kind::additive;
    const int rank = pick(2, 4);
    for (int a = 0; a < 4; ++a) m.dims[a] = (a < 4 - rank || pick(0, 2) == 0) ? 1 : full[a];
    m.values.resize(std::size_t(m.dims[0]) * m.dims[1] * m.dims[2] * m.dims[3]);
    for (float& x : m.values) {
      if (boolean) x = pick(0, 3) == 0 ? 0.0f : 1.0f;
      else x = pick(0, 5) == 0 ? attn::kNegInf : std::uniform_real_distribution<float>(-3, 3)(rng);
    }
    d.mask.resize(std::size_t(s.batch) * s.heads * s.nq * s.nk);
    std::size_t at = 0;
    for (int b = 0; b < s.batch; ++b)
      for (int h = 0; h < s.heads; ++h)
        for (int i = 0; i < s.nq; ++i)
          for (int j = 0; j < s.nk; ++j) {
            const int idx[4] = {b, h, i, j};
            std::size_t flat = 0;
            for (int a = 0; a < 4; ++a) flat = flat * m.dims[a] + (m.dims[a] == 1 ? 0 : idx[a]);
            const double x = m.values[flat];
            d.mask[at++] = boolean ? (x != 0 ? 0.0 : -std::numeric_limits<double>::infinity()) : x;
          }
  }
  return p;
}

// llm.c-style check: |got − want| within atol + rtol·|want|.
inline bool close(double got, double want, double atol, double rtol) {
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

}  // namespace testing_ref
