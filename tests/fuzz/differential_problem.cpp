#include "differential_problem.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <limits>

namespace differential {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// [SECTION] Sizes ----------------------------------------------------------------------------
// What the tiled kernel (src/attention/tiled.cpp) cuts a problem into, with the SSE2 of this
// build (4 lanes; AVX2 has 8, and twice the widths):
//   register blocks of 4 query rows × 8 keys (step 3) or 8 output columns (step 5), then the
//     last 1 to 3 rows and the last d_v mod 8 columns on their own; keys padded to 8;
//   key tiles of 64 keys when d_k ≤ 64, fewer above (40 at d_k = 96), the last one partial;
//   query blocks of 512 rows, the last one partial.
// A fuzz run is worth as many inputs as it can run, so most problems are small and reach the
// register blocks with their tails; some reach the key tiles, a few the query blocks. The
// largest, 2 × 4 heads × 600 × 72 × (12 + 12), runs in well under the 10 s timeout.
struct SizeClass {
  int nq_min, nq_max, nk_max, dk_max, dv_max;
};
// The input's first field picks one:           n_q from, to; n_k, d_k, d_v up to
constexpr SizeClass kRegisterBlocks{1, 9, 40, 40, 40};   // 12 in 16: 2 row blocks, 5 column blocks, and tails
constexpr SizeClass kKeyTiles{1, 12, 256, 96, 48};       //  3 in 16: 4 key tiles of 64 (6 of 40 at d_k = 96)
constexpr SizeClass kQueryBlocks{505, 600, 72, 12, 12};  //  1 in 16: a query block just short, full, full and more

const SizeClass& size_class(FuzzedDataProvider& in) {
  const int pick = in.ConsumeIntegralInRange(0, 15);
  return pick < 12 ? kRegisterBlocks : pick < 15 ? kKeyTiles : kQueryBlocks;
}

// [SECTION] Values ---------------------------------------------------------------------------
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

}  // namespace

Problem decode(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Problem p;
  attn::Shape& s = p.shape;
  const SizeClass& c = size_class(in);
  s.batch = in.ConsumeIntegralInRange(1, 2);
  s.kv_heads = in.ConsumeIntegralInRange(1, 2);
  s.heads = s.kv_heads * in.ConsumeIntegralInRange(1, 2);
  s.nq = in.ConsumeIntegralInRange(c.nq_min, c.nq_max);
  s.nk = in.ConsumeIntegralInRange(1, c.nk_max);
  s.dk = in.ConsumeIntegralInRange(1, c.dk_max);
  s.dv = in.ConsumeIntegralInRange(1, c.dv_max);

  attn::Options& opt = p.options;
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
  p.magnitudes[3] = magnitude(in);
  for (int t = 0; t < 3; ++t) p.magnitudes[t] = magnitude(in);
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
      opt.mask.values = fill(count, p.magnitudes[3], neg_inf_per_mille, rng);
    }
  }
  // −∞ only where the contract allows it, in the additive mask: Q, K and V are checked finite
  // before they reach the kernel (docs/contract.md).
  p.q = fill(s.q_size(), p.magnitudes[0], 0, rng);
  p.k = fill(s.k_size(), p.magnitudes[1], 0, rng);
  p.v = fill(s.v_size(), p.magnitudes[2], 0, rng);
  return p;
}

void Problem::describe() const {
  const attn::Shape& s = shape;
  const attn::Options& opt = options;
  std::fprintf(stderr,
               "  shape batch %d heads %d kv_heads %d nq %d nk %d dk %d dv %d; scale %g; causal %d; mask kind %d "
               "dims %dx%dx%dx%d; magnitudes q %g k %g v %g mask %g\n",
               s.batch, s.heads, s.kv_heads, s.nq, s.nk, s.dk, s.dv, opt.scale, int(opt.causal), int(opt.mask.kind),
               opt.mask.dims[0], opt.mask.dims[1], opt.mask.dims[2], opt.mask.dims[3], magnitudes[0], magnitudes[1],
               magnitudes[2], magnitudes[3]);
}

}  // namespace differential
