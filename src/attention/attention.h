// The attention kernel's public API: softmax(scale · Q Kᵀ + mask) V over (batch, heads)
// with every option of docs/contract.md, in plain C++ types (no JSON, no UI, no GL).
//
// Tensors are dense float32, row-major, laid out (batch, heads, n, d). K and V may have
// fewer heads than Q (grouped-query attention): K/V head h / (heads / kv_heads) serves query
// head h.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace attn {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// The one place sizes multiply: element counts in 64 bits whatever the target (std::size_t and
// long are 32 bits in WebAssembly, where a product of dimensions could wrap to a small
// number and pass a limit), saturating at kTooMany, which no limit admits, instead of
// wrapping. Negative dimensions count as too many.
inline constexpr std::uint64_t kTooMany = std::numeric_limits<std::uint64_t>::max();
inline std::uint64_t elements(std::initializer_list<std::int64_t> dims) {
  std::uint64_t n = 1;
  for (const std::int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(n, std::uint64_t(d), &n)) return kTooMany;
  return n;
}

struct Shape {
  int batch = 1, heads = 1, kv_heads = 1;
  int nq = 0, nk = 0, dk = 0, dv = 0;

  std::uint64_t q_size() const { return elements({batch, heads, nq, dk}); }
  std::uint64_t k_size() const { return elements({batch, kv_heads, nk, dk}); }
  std::uint64_t v_size() const { return elements({batch, kv_heads, nk, dv}); }
  std::uint64_t out_size() const { return elements({batch, heads, nq, dv}); }
  std::uint64_t weights_size() const { return elements({batch, heads, nq, nk}); }
  int kv_head_of(int head) const { return head / (heads / kv_heads); }
};

enum class Causal { none, top_left, bottom_right };

// Whether query i may attend key j under a causal alignment. Top-left: j <= i.
// Bottom-right aligns the last query with the last key: j <= i + (nk - nq).
inline bool causal_allows(Causal c, int i, int j, int nq, int nk) {
  switch (c) {
    case Causal::none: return true;
    case Causal::top_left: return j <= i;
    case Causal::bottom_right: return j <= i + (nk - nq);
  }
  return true;
}

// How the lesson's scale factors are named. The contract itself only carries a number.
enum class ScaleMode { inv_sqrt_dk, none, inv_dk, custom };
float scale_for(ScaleMode mode, int dk, float custom = 1.0f);

// An explicit mask broadcast numpy-style against (batch, heads, nq, nk): `dims` holds the
// mask's own sizes right-aligned to those four axes, 1 where it repeats.
struct Mask {
  enum class Kind { none, boolean, additive };
  Kind kind = Kind::none;
  std::array<int, 4> dims{1, 1, 1, 1};
  std::vector<float> values;  // boolean: 1 = may attend, 0 = blocked; additive: added to scores

  bool empty() const { return kind == Kind::none; }
  float at(int b, int h, int i, int j) const {
    const int bb = dims[0] == 1 ? 0 : b, hh = dims[1] == 1 ? 0 : h;
    const int ii = dims[2] == 1 ? 0 : i, jj = dims[3] == 1 ? 0 : j;
    return values[((std::size_t(bb) * dims[1] + hh) * dims[2] + ii) * dims[3] + jj];
  }
};

enum class Softmax {
  stable,  // subtract the row maximum first: never overflows; a fully blocked row gives 0
  naive    // exp(s) / Σ exp(s) as written on the blackboard: overflows, and 0/0 gives NaN
};

// Where the reference keeps its intermediates. float16 rounds each stage's result (scores,
// mask, exponentials, sums, weights, output) to the nearest half, as a half-precision kernel
// stores them, while each stage's arithmetic stays float32; the backward pass stays float32.
enum class Precision { float32, float16 };

struct Options {
  float scale = 1.0f;  // multiplies Q Kᵀ (use scale_for() for 1/√d_k)
  Causal causal = Causal::none;
  Mask mask;
  // What is added to a score that causal or a boolean mask blocks. −∞ is right; the lesson's
  // pitfalls show what −1e9, −1 and 0 do instead.
  float mask_fill = kNegInf;
  Softmax softmax = Softmax::stable;
  Precision precision = Precision::float32;
};

// The additive term that the mask and causal settings put on score (b, h, i, j):
// 0 where nothing applies, mask_fill where blocked, the mask's own value when additive.
float mask_term(const Shape& s, const Options& o, int b, int h, int i, int j);

struct Inputs {
  Shape shape;
  const float* q = nullptr;  // (batch, heads,    nq, dk)
  const float* k = nullptr;  // (batch, kv_heads, nk, dk)
  const float* v = nullptr;  // (batch, kv_heads, nk, dv)
};

// Checks the shape for consistency, and that every tensor and the scores of a head can be
// addressed on this target; returns an empty string when it is usable, otherwise one
// sentence saying what is wrong.
std::string validate(const Shape& s);

enum class Kernel { automatic, reference, tiled };

// The one forward entry point: output (batch, heads, nq, dv) into `out`. `automatic` takes
// the tiled kernel for large inputs and the reference otherwise; both give the same result.
void forward(const Inputs& in, const Options& opt, float* out, Kernel kernel = Kernel::automatic);

}  // namespace attn
