#include "peak.h"

#include "relaxed/relaxed.h"
#include "simd.h"

namespace attn {

namespace s = simd;

float madd_chains(int steps) {
  // Where the tiled kernel runs in attention-relaxed.wasm, so does its peak.
  if (relaxed::available()) return relaxed::madd_chains(steps);
  const s::vf m = s::splat(0.9999f), k = s::splat(1e-4f);
  s::vf a0 = s::splat(0.05f), a1 = s::splat(0.10f), a2 = s::splat(0.15f), a3 = s::splat(0.20f);
  s::vf a4 = s::splat(0.25f), a5 = s::splat(0.30f), a6 = s::splat(0.35f), a7 = s::splat(0.40f);
  s::vf a8 = s::splat(0.45f), a9 = s::splat(0.50f), a10 = s::splat(0.55f), a11 = s::splat(0.60f);
  for (int i = 0; i < steps; ++i) {
    a0 = s::madd(a0, m, k), a1 = s::madd(a1, m, k), a2 = s::madd(a2, m, k), a3 = s::madd(a3, m, k);
    a4 = s::madd(a4, m, k), a5 = s::madd(a5, m, k), a6 = s::madd(a6, m, k), a7 = s::madd(a7, m, k);
    a8 = s::madd(a8, m, k), a9 = s::madd(a9, m, k), a10 = s::madd(a10, m, k), a11 = s::madd(a11, m, k);
  }
  const s::vf sum = s::add(s::add(s::add(a0, a1), s::add(a2, a3)), s::add(s::add(a4, a5), s::add(a6, a7)));
  return s::hsum(s::add(sum, s::add(s::add(a8, a9), s::add(a10, a11))));
}

double madd_chains_flops(int steps) { return double(steps) * kPeakChains * s::kLanes * 2; }

}  // namespace attn
