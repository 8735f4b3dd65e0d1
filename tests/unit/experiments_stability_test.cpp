// The stability experiment's thresholds against the formats' limits, and float16 rounding
// against values worked out by hand from the binary16 format.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>

#include "half.h"
#include "stability.h"

namespace {

const experiments::SoftmaxSeries& series(const experiments::StabilityData& d, const std::string& name) {
  for (const auto& s : d.series)
    if (s.name == name) return s;
  throw std::runtime_error("no series " + name);
}

const experiments::MaskFillCase& fill_case(const experiments::StabilityData& d, const std::string& name) {
  for (const auto& c : d.mask_fills)
    if (c.name == name) return c;
  throw std::runtime_error("no case " + name);
}

TEST(ExperimentsHalf, RoundsLikeBinary16) {
  using attn::round_to_half;
  EXPECT_EQ(round_to_half(65504.0f), 65504.0f);                          // the largest half
  EXPECT_EQ(round_to_half(65519.0f), 65504.0f);                          // below the halfway point
  EXPECT_TRUE(std::isinf(round_to_half(65520.0f)));                      // halfway rounds to even: ∞
  EXPECT_EQ(round_to_half(-1e9f), -INFINITY);
  EXPECT_EQ(round_to_half(1.0f + std::ldexp(1.0f, -11)), 1.0f);          // tie, to the even 1
  EXPECT_EQ(round_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(round_to_half(std::ldexp(1.0f, -25)), 0.0f);                 // half the smallest subnormal
  EXPECT_EQ(round_to_half(3 * std::ldexp(1.0f, -25)), std::ldexp(1.0f, -23));
  EXPECT_EQ(round_to_half(0.1f), 0.0999755859375f);                      // 1638.4 · 2^-14 → 1638
}

TEST(ExperimentsStability, NaiveOverflowsAtTheFormatsLimits) {
  const experiments::StabilityData d = experiments::stability(3);
  const float step = d.magnitude_step;
  const experiments::SoftmaxSeries& f32 = series(d, "naive_float32");
  const experiments::SoftmaxSeries& f16 = series(d, "naive_float16");
  // The first swept magnitude past the limit: at most one step above it, never below.
  EXPECT_GE(f32.first_overflow, std::log(FLT_MAX) - 1e-4);
  EXPECT_LE(f32.first_overflow, std::log(FLT_MAX) + step);
  EXPECT_GE(f16.first_overflow, std::log(65504.0) - 1e-4);
  EXPECT_LE(f16.first_overflow, std::log(65504.0) + step);
  // e^s / Σ e^s = ∞ / ∞ from the first overflow on.
  EXPECT_EQ(f32.first_nan, f32.first_overflow);
  EXPECT_EQ(f16.first_nan, f16.first_overflow);
}

TEST(ExperimentsStability, StableSoftmaxMatchesFloat64Everywhere) {
  const experiments::StabilityData d = experiments::stability(4);
  for (const char* name : {"stable_float32", "stable_float16"}) {
    const experiments::SoftmaxSeries& s = series(d, name);
    EXPECT_TRUE(std::isnan(s.first_overflow)) << name;
    EXPECT_TRUE(std::isnan(s.first_nan)) << name;
    // float16 keeps 11 significant bits: a relative error of 2^-11 per stored stage.
    const double tol = s.precision == attn::Precision::float16 ? 4e-3 : 1e-6;
    for (std::size_t i = 0; i < d.magnitude.size(); ++i) {
      double sum = 0, top = 0;
      for (const float u : d.pattern) {
        const double e = std::exp(double(d.magnitude[i]) * u - d.magnitude[i]);  // the top pattern entry is 1
        sum += e;
        if (u == 1.0f) top = e;
      }
      EXPECT_NEAR(s.max_weight[i], top / sum, tol) << name << " at " << d.magnitude[i];
      EXPECT_EQ(s.largest_exp[i], 1.0f) << name;
    }
  }
}

TEST(ExperimentsStability, MinusOneBillionAgainstMinusInfinity) {
  const experiments::StabilityData d = experiments::stability(5);
  const auto& inf32 = fill_case(d, "neg_inf_float32");
  const auto& big32 = fill_case(d, "neg_1e9_float32");
  const auto& inf16 = fill_case(d, "neg_inf_float16");
  const auto& big16 = fill_case(d, "neg_1e9_float16");
  EXPECT_EQ(big32.stored_fill, -1e9f);
  EXPECT_EQ(big16.stored_fill, -INFINITY);  // beyond −65504 there is no float16 but −∞
  // A partly blocked row: e^(−1e9) underflows to exactly 0, so −1e9 and −∞ agree bit for bit.
  for (int j = 0; j < d.mask_keys; ++j) EXPECT_EQ(big32.weights(0, j), inf32.weights(0, j));
  for (int j = d.mask_keys / 2; j < d.mask_keys; ++j) EXPECT_EQ(inf32.weights(0, j), 0.0f);
  // A fully blocked row: −∞ leaves no key (weights 0); −1e9 leaves every key equally likely.
  for (int j = 0; j < d.mask_keys; ++j) {
    EXPECT_EQ(inf32.weights(1, j), 0.0f);
    EXPECT_FLOAT_EQ(big32.weights(1, j), 1.0f / d.mask_keys);
    EXPECT_EQ(big16.weights(1, j), 0.0f);  // in float16, −1e9 already is −∞
    EXPECT_EQ(inf16.weights(1, j), 0.0f);
  }
}

}  // namespace
