// e^x element by element through the C library. Eigen's vectorised exp depends on the
// instruction set (its SSE2 path gives a subnormal for e^−∞ and a finite number where
// float32 overflows), while the reference and the training model must give the same numbers
// on every machine and in WebAssembly, where Eigen has no SIMD path and calls std::exp.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace attn {

template <typename Derived>
auto portable_exp(const Eigen::ArrayBase<Derived>& x) {
  return x.unaryExpr([](float v) { return std::exp(v); });
}

}  // namespace attn
