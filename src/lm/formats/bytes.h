// Reading the formats' raw bytes: little-endian integers and the three float formats a model
// file stores (IEEE binary32, binary16, and bfloat16, binary32's top half).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace lm {

template <class T>
T little_endian(std::string_view in, std::size_t at) {
  T v = 0;
  for (std::size_t k = 0; k < sizeof(T); ++k) v |= T(std::uint8_t(in[at + k])) << (8 * k);
  return v;
}

inline float float32_value(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline float bfloat16_value(std::uint16_t bits) { return float32_value(std::uint32_t(bits) << 16); }
inline float half_value(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  const double magnitude = exponent == 0 ? std::ldexp(double(mantissa), -24)
                           : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                            : std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
  return float(bits & 0x8000 ? -magnitude : magnitude);
}

}  // namespace lm
