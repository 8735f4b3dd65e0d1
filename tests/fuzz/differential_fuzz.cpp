// libFuzzer target: random problems through both kernels, checked against each other and
// against the tests' independent float64 attention. The fuzz input picks the shape (up to
// 320 queries and keys, so the tiled kernel's full query blocks and key tiles run), heads,
// scale, causal alignment, a broadcast boolean or additive mask, and the magnitude of each
// tensor (from 1e-30 to 1e20; −∞ sprinkled into the additive mask); a generator seeded from
// the input fills the values. The seeds in corpus/differential/ start it on shapes where the
// tiled kernel runs full blocks (150 × 200; 129 × 240 with a causal and an additive mask), and
// `ATTN_FUZZ_DESCRIBE=1 differential_fuzz <file>` prints the problem a file holds.
//
// Stated tolerance, per output row, from float32 rounding: each score carries an error of at
// most ds = (d_k + 8)·ε·(|scale|·Σ_d |q_d k_d| + |mask|) (ε = 2⁻²³), which moves the softmax
// weights by at most expm1(2·ds) in L1, so an output entry may differ from float64 by
//   min(2, expm1(2·ds))·|V|max + (n_k + 8)·ε·|V|max + 1e-37,
// where |V|max is the largest |v| of the head. A row whose float64 scores are NaN, +∞ or
// beyond ±1e37 before the scale or after the mask (where float32 overflows, which the contract
// refuses before the kernel) is only run, for the sanitizers. A row with every key blocked must be exactly 0 in both kernels.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include "../unit/float64_attention.h"
#include "attention.h"

namespace {

constexpr double kEps = 1.0 / (1 << 23);
constexpr float kInf = std::numeric_limits<float>::infinity();

struct SplitMix {  // the values' generator: a stream from one 64-bit seed
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform() { return float(next() >> 40) / float(1 << 24) * 2.0f - 1.0f; }  // [−1, 1)
};

// A tensor's values: uniform in ±magnitude, with a fraction of −∞ when asked.
std::vector<float> fill(std::uint64_t count, float magnitude, int neg_inf_per_mille, SplitMix& rng) {
  std::vector<float> out(count);
  for (float& x : out)
    x = int(rng.next() % 1000) < neg_inf_per_mille ? -kInf : magnitude * rng.uniform();
  return out;
}

float magnitude(FuzzedDataProvider& in) {
  static constexpr float kMagnitudes[] = {1.0f, 1e-30f, 1e-3f, 10.0f, 1e3f, 1e10f, 1e20f};
  return in.PickValueInArray(kMagnitudes);
}

struct Finding {  // what a reproducer's report says of its problem
  const attn::Shape& s;
  const attn::Options& opt;
  float magnitudes[4];  // Q, K, V, mask

  void describe() const {
    std::fprintf(stderr,
                 "  shape batch %d heads %d kv_heads %d nq %d nk %d dk %d dv %d; scale %g; causal %d; mask kind %d "
                 "dims %dx%dx%dx%d; magnitudes q %g k %g v %g mask %g\n",
                 s.batch, s.heads, s.kv_heads, s.nq, s.nk, s.dk, s.dv, opt.scale, int(opt.causal),
                 int(opt.mask.kind), opt.mask.dims[0], opt.mask.dims[1], opt.mask.dims[2], opt.mask.dims[3],
                 magnitudes[0], magnitudes[1], magnitudes[2], magnitudes[3]);
  }
  [[noreturn]] void operator()(const char* what, int b, int h, int i, int d, double got, double want, double tol) const {
    std::fprintf(stderr, "differential: %s at (batch %d, head %d, query %d, column %d): %.9g, float64 %.9g, tolerance %.3g\n",
                 what, b, h, i, d, got, want, tol);
    describe();
    std::abort();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  attn::Shape s;
  s.batch = in.ConsumeIntegralInRange(1, 2);
  s.kv_heads = in.ConsumeIntegralInRange(1, 2);
  s.heads = s.kv_heads * in.ConsumeIntegralInRange(1, 2);
  s.nq = in.ConsumeIntegralInRange(1, 320);
  s.nk = in.ConsumeIntegralInRange(1, 320);
  s.dk = in.ConsumeIntegralInRange(1, 96);
  s.dv = in.ConsumeIntegralInRange(1, 96);
  // Keep one run near a tenth of a second under the sanitizers: shrink the queries first.
  while (double(s.batch) * s.heads * s.nq * s.nk * (s.dk + s.dv) > 5e6) s.nq = std::max(1, s.nq / 2);

  attn::Options opt;
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0: opt.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, s.dk); break;
    case 1: opt.scale = 1.0f; break;
    case 2: opt.scale = attn::scale_for(attn::ScaleMode::inv_dk, s.dk); break;
    case 3: opt.scale = 1e-30f; break;
    case 4: opt.scale = 1e10f; break;
    default: opt.scale = in.ConsumeFloatingPointInRange(-4.0f, 4.0f); break;
  }
  opt.causal = attn::Causal(in.ConsumeIntegralInRange(0, 2));
  const int mask_kind = in.ConsumeIntegralInRange(0, 2);
  const float mask_magnitude = magnitude(in);
  const float q_magnitude = magnitude(in), k_magnitude = magnitude(in), v_magnitude = magnitude(in);
  const int neg_inf_per_mille = in.ConsumeIntegralInRange(0, 500);  // of the additive mask's values
  SplitMix rng{in.ConsumeIntegral<std::uint64_t>()};

  if (mask_kind != 0) {
    opt.mask.kind = mask_kind == 1 ? attn::Mask::Kind::boolean : attn::Mask::Kind::additive;
    const int full[4] = {s.batch, s.heads, s.nq, s.nk};
    for (int a = 0; a < 4; ++a) opt.mask.dims[a] = rng.next() % 2 ? full[a] : 1;
    const std::uint64_t count = attn::elements({opt.mask.dims[0], opt.mask.dims[1], opt.mask.dims[2], opt.mask.dims[3]});
    if (mask_kind == 1) {
      opt.mask.values.resize(count);
      for (float& x : opt.mask.values) x = rng.next() % 4 ? 1.0f : 0.0f;
    } else {
      opt.mask.values = fill(count, mask_magnitude, neg_inf_per_mille, rng);
    }
  }
  // −∞ only where the contract allows it, in the additive mask: Q, K and V are checked finite
  // before they reach the kernel (docs/contract.md).
  const std::vector<float> q = fill(s.q_size(), q_magnitude, 0, rng);
  const std::vector<float> k = fill(s.k_size(), k_magnitude, 0, rng);
  const std::vector<float> v = fill(s.v_size(), v_magnitude, 0, rng);

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
  const Finding finding{s, opt, {q_magnitude, k_magnitude, v_magnitude, mask_magnitude}};
  if (std::getenv("ATTN_FUZZ_DESCRIBE")) finding.describe();  // what a corpus file or reproducer holds

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
        const double tol = std::min(2.0, std::expm1(2 * ds)) * vmax + (s.nk + 8) * kEps * vmax + 1e-37;
        for (int d = 0; d < s.dv; ++d) {
          const std::size_t e = row * s.dv + d;
          const double want_e = want.output[e];
          const float got[2] = {reference[e], tiled[e]};
          for (int kernel = 0; kernel < 2; ++kernel) {
            const std::string name = kernel == 0 ? "reference kernel: " : "tiled kernel: ";
            if (blocked && got[kernel] != 0.0f)
              finding((name + "a fully blocked row is not 0").c_str(), b, h, i, d, got[kernel], 0.0, 0.0);
            if (!std::isfinite(got[kernel]))
              finding((name + "a non-finite output for finite float64 scores").c_str(), b, h, i, d, got[kernel], want_e, tol);
            if (std::fabs(got[kernel] - want_e) > tol)
              finding((name + "off by more than the tolerance").c_str(), b, h, i, d, got[kernel], want_e, tol);
          }
        }
      }
    }
  return 0;
}
