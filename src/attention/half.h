// float16 rounding for the lesson's half-precision experiments: a float32 value rounded to
// the nearest IEEE binary16 value (ties to even), kept in a float. Above the largest half,
// 65504, values round to ±∞ exactly as a half-precision store would.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

inline constexpr float kHalfMax = 65504.0f;

inline float round_to_half(float x) {
  if (!std::isfinite(x) || x == 0.0f) return x;
  const float a = std::fabs(x);
  // Halfway between 65504 and the next step (65536) rounds to the even side, which is ∞.
  if (a >= kHalfMax + 16.0f) return std::copysign(std::numeric_limits<float>::infinity(), x);
  int e = 0;
  std::frexp(a, &e);  // a = f · 2^e with f in [0.5, 1)
  // 11 significant bits for normal halves; subnormals (below 2^-14) are multiples of 2^-24.
  const int step = std::max(e - 11, -24);
  return std::copysign(std::ldexp(std::nearbyint(std::ldexp(a, -step)), step), x);
}

}  // namespace attn
