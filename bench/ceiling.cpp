// The practical ceiling for the tiled kernel in WebAssembly: a plain SIMD128 matrix multiply
// with the same 4 × 2-vector register block and instruction mix (broadcast, multiply, add) as
// the kernel's products, but no softmax. It runs Q·Kᵀ's flops the way the kernel meets them:
// Q (n × 64, its rows interleaved by groups of 4 as the kernel packs its queries) times each
// 64-key slice of Kᵀ, stored slice after slice (64 × 64 each, as the kernel packs its K
// tiles; a row stride of n would alias in L1 for powers of two), into one n × 64 block that
// stays in cache, so it measures arithmetic, not memory traffic.
#include <vector>

#include "peak.h"
#include "simd.h"

namespace {

using attn::simd::vf;
using namespace attn::simd;

// Q as n / 4 groups of (k × 4), Kᵀ as n / kTile slices of (k × kTile), scores (n × kTile)
std::vector<float> a, b, c;
int N, K;
constexpr int kTile = 64;

}  // namespace

extern "C" {
// n a multiple of 64. 2·n²·k flops over the n / 64 slices.
void ceiling_prepare(int n, int k) {
  N = n, K = k;
  a.assign(std::size_t(n) * k, 0.5f);
  b.assign(std::size_t(k) * n, 0.25f);
  c.assign(std::size_t(n) * kTile, 0.0f);
}

// c = a · (slice j0 / kTile of b). Called once per slice from JS rather than looped over
// here: V8 swaps in optimised code between calls into WebAssembly.
void ceiling_slice(int j0) {
  constexpr int kCols = 2 * kLanes;
  for (int i = 0; i + 4 <= N; i += 4)
    for (int j = 0; j < kTile; j += kCols) {
      vf acc[4][2];
      for (auto& row : acc) row[0] = row[1] = splat(0.0f);
      const float* bp = &b[std::size_t(j0) * K + j];
      const float* ap = &a[std::size_t(i) * K];
      for (int p = 0; p < K; ++p, bp += kTile, ap += 4) {
        const vf b0 = load(bp), b1 = load(bp + kLanes);
        for (int r = 0; r < 4; ++r) {
          const vf av = load_splat(ap + r);
          acc[r][0] = madd(av, b0, acc[r][0]);
          acc[r][1] = madd(av, b1, acc[r][1]);
        }
      }
      for (int r = 0; r < 4; ++r) {
        store(&c[std::size_t(i + r) * kTile + j], acc[r][0]);
        store(&c[std::size_t(i + r) * kTile + j + kLanes], acc[r][1]);
      }
    }
}

// The build's arithmetic peak: attn::madd_chains (src/attention/peak.h), timed by the caller.
float ceiling_peak(int steps) { return attn::madd_chains(steps); }
double ceiling_peak_flops(int steps) { return attn::madd_chains_flops(steps); }

}
