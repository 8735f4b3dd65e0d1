// An independent float64 attention for the tests: plain loops straight from the definition,
// sharing no code with the kernel, so agreement means something.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

namespace testing_ref {

struct Problem64 {
  int batch = 1, heads = 1, kv_heads = 1, nq = 1, nk = 1, dk = 1, dv = 1;
  std::vector<double> q, k, v;  // (batch, heads | kv_heads, n, d)
  double scale = 1.0;
  int causal_offset_enabled = 0;  // 0: none, 1: j <= i, 2: j <= i + nk - nq
  std::vector<double> mask;       // empty, or additive over the full (batch, heads, nq, nk)
};

struct Result64 {
  std::vector<double> scores, weights, output;  // (batch, heads, nq, nk | dv)
};

inline Result64 attention64(const Problem64& p) {
  const double inf = std::numeric_limits<double>::infinity();
  Result64 r;
  r.scores.assign(std::size_t(p.batch) * p.heads * p.nq * p.nk, 0.0);
  r.weights.assign(r.scores.size(), 0.0);
  r.output.assign(std::size_t(p.batch) * p.heads * p.nq * p.dv, 0.0);
  const int group = p.heads / p.kv_heads;
  for (int b = 0; b < p.batch; ++b)
    for (int h = 0; h < p.heads; ++h) {
      const int g = h / group;
      for (int i = 0; i < p.nq; ++i) {
        const std::size_t row = ((std::size_t(b) * p.heads + h) * p.nq + i);
        double* s = &r.scores[row * p.nk];
        double best = -inf;
        for (int j = 0; j < p.nk; ++j) {
          double dot = 0;
          for (int d = 0; d < p.dk; ++d)
            dot += p.q[row * p.dk + d] * p.k[((std::size_t(b) * p.kv_heads + g) * p.nk + j) * p.dk + d];
          double x = dot * p.scale;
          if (!p.mask.empty()) x += p.mask[row * p.nk + j];
          if (p.causal_offset_enabled == 1 && j > i) x = -inf;
          if (p.causal_offset_enabled == 2 && j > i + (p.nk - p.nq)) x = -inf;
          s[j] = x;
          if (x > best) best = x;
        }
        if (best == -inf) continue;  // every key blocked: weights and output stay 0
        double sum = 0;
        for (int j = 0; j < p.nk; ++j) sum += std::exp(s[j] - best);
        for (int j = 0; j < p.nk; ++j) {
          const double w = std::exp(s[j] - best) / sum;
          r.weights[row * p.nk + j] = w;
          for (int d = 0; d < p.dv; ++d)
            r.output[row * p.dv + d] += w * p.v[((std::size_t(b) * p.kv_heads + g) * p.nk + j) * p.dv + d];
        }
      }
    }
  return r;
}

}  // namespace testing_ref
