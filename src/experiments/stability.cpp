#include "stability.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "half.h"
#include "sampling.h"

namespace experiments {

namespace {

constexpr int kKeys = 8;
constexpr float kStep = 1.0f / 16;  // exact in binary, so every swept magnitude is exact
constexpr float kLargest = 100.0f;  // past float32's overflow at ≈ 88.7
constexpr int kMaskKeys = 6, kMaskDk = 8;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Scores magnitude · pattern through the kernel: a 1 × 1 query holding the magnitude against
// 1-dimensional keys holding the pattern, scale 1.
attn::HeadTrace score_row(const std::vector<float>& pattern, float magnitude, attn::Softmax softmax,
                          attn::Precision precision) {
  attn::Shape s;
  s.nq = 1;
  s.nk = int(pattern.size());
  s.dk = s.dv = 1;
  const std::vector<float> v(pattern.size(), 1.0f);
  attn::Options o;
  o.softmax = softmax;
  o.precision = precision;
  return attn::reference_forward({s, &magnitude, pattern.data(), v.data()}, o).heads.front();
}

std::vector<float> pattern_from(std::uint32_t seed) {
  std::vector<float> x = standard_normal(seed, 5, kKeys);
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const float min = *lo, span = *hi - *lo;
  for (float& e : x) e = (e - min) / span;
  return x;
}

SoftmaxSeries sweep(const StabilityData& d, const char* name, attn::Softmax softmax, attn::Precision precision) {
  SoftmaxSeries s;
  s.name = name;
  s.softmax = softmax;
  s.precision = precision;
  s.first_overflow = s.first_nan = kNaN;
  const auto top = std::max_element(d.pattern.begin(), d.pattern.end()) - d.pattern.begin();
  for (const float m : d.magnitude) {
    const attn::HeadTrace t = score_row(d.pattern, m, softmax, precision);
    const float largest = t.exps.maxCoeff();
    s.largest_exp.push_back(largest);
    s.max_weight.push_back(t.weights(0, top));
    if (std::isinf(largest) && std::isnan(s.first_overflow)) s.first_overflow = m;
    if (t.weights.hasNaN() && std::isnan(s.first_nan)) s.first_nan = m;
  }
  return s;
}

MaskFillCase mask_fill_case(const Problem& p, const char* name, float fill, attn::Precision precision) {
  attn::Options o;
  o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, p.shape.dk);
  o.mask_fill = fill;
  o.precision = precision;
  o.mask.kind = attn::Mask::Kind::boolean;
  o.mask.dims = {1, 1, 2, kMaskKeys};
  o.mask.values.assign(2 * kMaskKeys, 0.0f);  // query 1: all blocked
  for (int j = 0; j < kMaskKeys / 2; ++j) o.mask.values[j] = 1.0f;  // query 0: first half open
  const attn::HeadTrace t = attn::reference_forward(p.inputs(), o).heads.front();
  MaskFillCase c;
  c.name = name;
  c.fill = fill;
  c.precision = precision;
  c.stored_fill = t.mask(1, 0);
  c.weights = t.weights;
  return c;
}

}  // namespace

StabilityData stability(std::uint32_t seed) {
  StabilityData d;
  d.seed = seed;
  d.pattern = pattern_from(seed);
  d.magnitude_step = kStep;
  for (int i = 0; i * kStep <= kLargest; ++i) d.magnitude.push_back(i * kStep);
  d.predicted_overflow_float32 = std::log(std::numeric_limits<float>::max());
  d.predicted_overflow_float16 = std::log(attn::kHalfMax);
  using attn::Precision;
  using attn::Softmax;
  d.series.push_back(sweep(d, "naive_float32", Softmax::naive, Precision::float32));
  d.series.push_back(sweep(d, "stable_float32", Softmax::stable, Precision::float32));
  d.series.push_back(sweep(d, "naive_float16", Softmax::naive, Precision::float16));
  d.series.push_back(sweep(d, "stable_float16", Softmax::stable, Precision::float16));

  attn::Shape s;
  s.nq = 2;
  s.nk = kMaskKeys;
  s.dk = kMaskDk;
  s.dv = 1;
  const Problem p = random_problem(s, seed);
  d.mask_keys = kMaskKeys;
  d.mask_fills.push_back(mask_fill_case(p, "neg_inf_float32", attn::kNegInf, Precision::float32));
  d.mask_fills.push_back(mask_fill_case(p, "neg_1e9_float32", -1e9f, Precision::float32));
  d.mask_fills.push_back(mask_fill_case(p, "neg_inf_float16", attn::kNegInf, Precision::float16));
  d.mask_fills.push_back(mask_fill_case(p, "neg_1e9_float16", -1e9f, Precision::float16));
  return d;
}

}  // namespace experiments
