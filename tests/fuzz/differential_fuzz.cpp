// libFuzzer target: random problems (differential_problem.h) through both kernels, checked
// against each other and against the tests' independent float64 attention. The seeds in
// corpus/differential/ start it on each size class, the tiled kernel's key tiles and query
// blocks among them, and `ATTN_FUZZ_DESCRIBE=1 differential_fuzz <file>` prints the problem a
// file holds.
//
// Stated tolerance, per output row, from float32 rounding: each score carries an error of at
// most ds = (d_k + 8)·ε·(|scale|·Σ_d |q_d k_d| + |mask|) (ε = 2⁻²³), which moves the softmax
// weights by at most expm1(2·ds) in L1, so an output entry may differ from float64 by
//   min(2, expm1(2·ds))·|V|max + (n_k + 8)·ε·|V|max + 1e-37,
// where |V|max is the largest |v| of the head. The tiled kernel's exponential is a polynomial
// of relative error up to kTiledExp2Error (simd.h's exp2, well inside the contract's 1e-4),
// and weights off by a relative δ move an output by up to 2δ·|V|max, which its tolerance adds
// (corpus/differential/finding-tiled-exp2: two keys, |v| up to 1e20). A row whose float64
// scores are NaN, +∞ or beyond ±1e37 before the scale or after the mask (where float32
// overflows, which the contract refuses before the kernel) is only run, for the sanitizers.
// A row with every key blocked must be exactly 0 in both kernels.
//
// This file and the problem's decoding are built without coverage instrumentation
// (CMakeLists.txt): the fuzzer is guided by the kernels' branches alone, and the float64
// check, which costs as much as a kernel, does not pay for instrumented loops.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../unit/float64_attention.h"
#include "attention.h"
#include "differential_problem.h"

namespace {

constexpr double kEps = 1.0 / (1 << 23);
constexpr double kTiledExp2Error = 2.7e-6;  // measured over [−120, 0] in float32 (simd.h)
constexpr const char* kKernels[2] = {"reference", "tiled"};

[[noreturn]] void finding(const differential::Problem& problem, const char* kernel, const char* what, int b, int h,
                          int i, int d, double got, double want, double tol) {
  std::fprintf(stderr, "differential: %s kernel: %s at (batch %d, head %d, query %d, column %d): %.9g, float64 %.9g, tolerance %.3g\n",
               kernel, what, b, h, i, d, got, want, tol);
  problem.describe();
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const differential::Problem problem = differential::decode(data, size);
  const attn::Shape& s = problem.shape;
  const attn::Options& opt = problem.options;
  const std::vector<float>& q = problem.q, &k = problem.k, &v = problem.v;
  if (std::getenv("ATTN_FUZZ_DESCRIBE")) problem.describe();  // what a corpus file or reproducer holds

  const attn::Inputs inputs{s, q.data(), k.data(), v.data()};
  std::vector<float> reference(s.out_size()), tiled(s.out_size());
  attn::forward(inputs, opt, reference.data(), attn::Kernel::reference);
  attn::forward(inputs, opt, tiled.data(), attn::Kernel::tiled);

  testing_ref::Problem64 p;
  p.batch = s.batch, p.heads = s.heads, p.kv_heads = s.kv_heads;
  p.nq = s.nq, p.nk = s.nk, p.dk = s.dk, p.dv = s.dv;
  p.q.assign(q.begin(), q.end());
  p.k.assign(k.begin(), k.end());
  p.v.assign(v.begin(), v.end());
  p.scale = opt.scale;
  p.causal_offset_enabled = int(opt.causal);  // none, top-left, bottom-right in the same order
  if (!opt.mask.empty()) {
    p.mask.resize(s.weights_size());
    for (int b = 0; b < s.batch; ++b)
      for (int h = 0; h < s.heads; ++h)
        for (int i = 0; i < s.nq; ++i)
          for (int j = 0; j < s.nk; ++j)
            p.mask[((std::size_t(b) * s.heads + h) * s.nq + i) * s.nk + j] = attn::mask_term(s, opt, b, h, i, j);
  }
  const testing_ref::Result64 want = testing_ref::attention64(p);

  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const std::size_t kv = std::size_t(b) * s.kv_heads + s.kv_head_of(h);
      double vmax = 0;
      for (std::size_t e = kv * s.nk * s.dv; e < (kv + 1) * s.nk * s.dv; ++e) vmax = std::max(vmax, std::fabs(double(v[e])));
      for (int i = 0; i < s.nq; ++i) {
        const std::size_t row = (std::size_t(b) * s.heads + h) * s.nq + i;
        bool comparable = true, blocked = true;
        double ds = 0;
        for (int j = 0; j < s.nk; ++j) {
          const double x = want.scores[row * s.nk + j];
          double magnitude_sum = 0;
          for (int d = 0; d < s.dk; ++d)
            magnitude_sum += std::fabs(double(q[row * s.dk + d]) * k[(kv * s.nk + j) * s.dk + d]);
          // Scores that overflow float32, before the scale (the reference forms Q Kᵀ first) or
          // where the mask then blocks them, are the contract's to refuse with the same bound,
          // max(1, |scale|)·|q||k| (src/io/ranges.cpp), not the kernel's to compute.
          if (std::isnan(x) || x == HUGE_VAL || (std::isfinite(x) && std::fabs(x) > 1e37) ||
              std::max(1.0, std::fabs(double(opt.scale))) * magnitude_sum > 1e37)
            comparable = false;
          if (x == -HUGE_VAL) continue;
          blocked = false;
          const double mask = p.mask.empty() ? 0.0 : std::fabs(p.mask[row * s.nk + j]);
          ds = std::max(ds, (s.dk + 8) * kEps * (std::fabs(double(opt.scale)) * magnitude_sum + mask));
        }
        if (!comparable) continue;
        const double rounding = std::min(2.0, std::expm1(2 * ds)) * vmax + (s.nk + 8) * kEps * vmax + 1e-37;
        const double tols[2] = {rounding, rounding + 2 * kTiledExp2Error * vmax};
        for (int d = 0; d < s.dv; ++d) {
          const std::size_t e = row * s.dv + d;
          const double want_e = want.output[e];
          const float got[2] = {reference[e], tiled[e]};
          for (int kernel = 0; kernel < 2; ++kernel) {
            const char* name = kKernels[kernel];
            const double tol = tols[kernel];
            if (blocked && got[kernel] != 0.0f)
              finding(problem, name, "a fully blocked row is not 0", b, h, i, d, got[kernel], 0.0, 0.0);
            if (!std::isfinite(got[kernel]))
              finding(problem, name, "a non-finite output for finite float64 scores", b, h, i, d, got[kernel], want_e, tol);
            if (std::fabs(got[kernel] - want_e) > tol)
              finding(problem, name, "off by more than the tolerance", b, h, i, d, got[kernel], want_e, tol);
          }
        }
      }
    }
  return 0;
}
