// Finite inputs whose scores or outputs would overflow float32: refused with an error that
// names the field, because past float32's range the kernels can only answer NaN (or 0, when
// the tiled kernel's exp2 clamps a NaN score).
//
// The checks bound what the kernels compute in O(inputs), never O(scores), by Cauchy–Schwarz:
//   |score_ij| <= max(1, |scale|) · |q_i| · |k_j| + |mask_ij|
// (the reference forms Q Kᵀ before scaling, the tiled kernel scales Q first), and an
// output's running sum in the tiled kernel, Σ_j p_j v_j with p_j <= 1, by n_k · max |v|.
// Both must stay within a quarter of float32's largest value: the tiled kernel works in
// base 2 (scores × log2 e = 1.44), and float32 sums of d terms can exceed their exact value
// by a factor of up to e^(d·2⁻²⁴) <= e for the d this build accepts.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "contract.h"
#include "number_text.h"

namespace attn::io {

namespace {

constexpr double kRange = FLT_MAX / 4.0;

std::string past_range(double x) {
  return " could reach " + text::significant(x, 3) + ", past the " + text::significant(kRange, 3) +
         " within which this build computes in float32";
}

// The largest Euclidean norm of `rows` rows of `cols` floats.
double max_row_norm(const float* x, std::uint64_t rows, int cols) {
  double best = 0.0;
  for (std::uint64_t r = 0; r < rows; ++r, x += cols) {
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += double(x[c]) * x[c];
    best = std::max(best, sum);
  }
  return std::sqrt(best);
}

// The largest |x| that is finite: a mask's −∞ blocks a key and adds nothing to bound.
double max_abs_finite(const float* x, std::uint64_t n) {
  double best = 0.0;
  for (std::uint64_t i = 0; i < n; ++i)
    if (std::isfinite(x[i])) best = std::max(best, double(std::fabs(x[i])));
  return best;
}

}  // namespace

float check_scale(double scale) {
  if (!std::isfinite(scale) || std::fabs(scale) > FLT_MAX) throw RequestError("scale: expected a finite number");
  return float(scale);
}

void check_ranges(const Inputs& in, const Options& o) {
  const Shape& s = in.shape;
  const double scores = std::max(1.0, double(std::fabs(o.scale))) *
                        max_row_norm(in.q, s.q_size() / s.dk, s.dk) * max_row_norm(in.k, s.k_size() / s.dk, s.dk);
  if (scores > kRange)
    throw RequestError(std::string(std::fabs(o.scale) > 1.0f ? "q, k and scale" : "q and k") + ": scores" +
                       past_range(scores));
  if (o.mask.kind == Mask::Kind::additive) {
    const double masked = scores + max_abs_finite(o.mask.values.data(), o.mask.values.size());
    if (masked > kRange) throw RequestError("mask: scores plus the mask" + past_range(masked));
  }
  const double sums = double(s.nk) * max_abs_finite(in.v, s.v_size());
  if (sums > kRange) throw RequestError("v: n_k times the largest |v|" + past_range(sums));
}

}  // namespace attn::io
