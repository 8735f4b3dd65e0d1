// Shared pieces of the kernel API: scale modes, the mask term, shape checks and the choice
// between the reference and the tiled kernel.
#include "attention.h"

#include <cmath>
#include <cstddef>
#include <cstring>

#include "reference.h"
#include "tiled.h"

namespace attn {

float scale_for(ScaleMode mode, int dk, float custom) {
  switch (mode) {
    case ScaleMode::inv_sqrt_dk: return 1.0f / std::sqrt(float(dk));
    case ScaleMode::none: return 1.0f;
    case ScaleMode::inv_dk: return 1.0f / float(dk);
    case ScaleMode::custom: return custom;
  }
  return 1.0f;
}

float mask_term(const Shape& s, const Options& o, int b, int h, int i, int j) {
  if (!causal_allows(o.causal, i, j, s.nq, s.nk)) return o.mask_fill;
  switch (o.mask.kind) {
    case Mask::Kind::none: return 0.0f;
    case Mask::Kind::boolean: return o.mask.at(b, h, i, j) != 0.0f ? 0.0f : o.mask_fill;
    case Mask::Kind::additive: return o.mask.at(b, h, i, j);
  }
  return 0.0f;
}

std::string validate(const Shape& s) {
  if (s.batch < 1 || s.heads < 1 || s.kv_heads < 1 || s.nq < 1 || s.nk < 1 || s.dk < 1 || s.dv < 1)
    return "every dimension must be at least 1";
  const std::uint64_t addressable = std::numeric_limits<std::ptrdiff_t>::max() / sizeof(float);
  for (const std::uint64_t n : {s.q_size(), s.k_size(), s.v_size(), s.out_size(), elements({s.nq, s.nk})})
    if (n > addressable) return "the tensors have more elements than this target can address";
  if (s.heads % s.kv_heads != 0)
    return "the number of query heads (" + std::to_string(s.heads) +
           ") is not a multiple of the number of key/value heads (" + std::to_string(s.kv_heads) + ")";
  return {};
}

// Past this many scores per head the tiled kernel wins, and the reference's n_q × n_k
// matrices would start to cost real memory.
constexpr std::uint64_t kAutoTiledScores = 128 * 128;

void forward(const Inputs& in, const Options& opt, float* out, Kernel kernel) {
  const Shape& s = in.shape;
  // The tiled kernel implements the contract's semantics only: the stable softmax, −∞ for
  // blocked keys, float32. The lesson's deliberate mistakes always go through the reference.
  const bool tiled_can = opt.softmax == Softmax::stable && opt.mask_fill == kNegInf &&
                         opt.precision == Precision::float32;
  if (kernel == Kernel::automatic)
    kernel = elements({s.nq, s.nk}) >= kAutoTiledScores ? Kernel::tiled : Kernel::reference;
  if (kernel == Kernel::tiled && tiled_can) {
    tiled_forward(in, opt, out);
    return;
  }
  const std::vector<float> o = reference_forward(in, opt).gather(&HeadTrace::output);
  std::memcpy(out, o.data(), o.size() * sizeof(float));
}

}  // namespace attn
