#include "optimizer.h"

#include <cmath>

namespace train {

void adam_update(Params& p, Params& m, Params& v, const Params& g, float lr, int t, float weight_decay) {
  constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  const float c1 = 1.0f - std::pow(b1, float(t)), c2 = 1.0f - std::pow(b2, float(t));
  std::vector<Matrix*> ps, ms, vs;
  std::vector<const Matrix*> gs;
  Params::each(p, [&](const std::string&, Matrix& x) { ps.push_back(&x); });
  Params::each(m, [&](const std::string&, Matrix& x) { ms.push_back(&x); });
  Params::each(v, [&](const std::string&, Matrix& x) { vs.push_back(&x); });
  Params::each(g, [&](const std::string&, const Matrix& x) { gs.push_back(&x); });
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (weight_decay > 0) *ps[i] *= 1.0f - lr * weight_decay;
    *ms[i] = b1 * *ms[i] + (1 - b1) * *gs[i];
    *vs[i] = b2 * *vs[i] + (1 - b2) * gs[i]->cwiseAbs2();
    ps[i]->array() -= lr * (ms[i]->array() / c1) / ((vs[i]->array() / c2).sqrt() + eps);
  }
}

}  // namespace train
