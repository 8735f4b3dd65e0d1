// Numbers as text (src/text/number_text.h), against facts that do not come from the code under
// test: strtof reading the text back, and every text one digit shorter failing to.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "number_text.h"

namespace {

float from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The significant digits of a %g or %e text: "-0.00125" has 3, "1.5e+07" has 2.
int significant_digits(const std::string& t) {
  std::string digits;
  for (char c : t.substr(0, t.find('e')))
    if (c >= '0' && c <= '9') digits += c;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;  // zero
  digits = digits.substr(first);
  return int(digits.find_last_not_of('0') + 1);
}

// Whether some decimal of `digits` significant digits reads back as x: the two nearest to x
// (the mantissa of x rounded to that many digits, and one unit either side of it) are the
// only candidates, whichever side of x the float's rounding interval is wider on.
bool some_text_of_length_reads_back(float x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, double(x));
  const std::string t = buf;
  const std::size_t e = t.find('e');
  std::string mantissa;
  for (char c : t.substr(0, e))
    if (c >= '0' && c <= '9') mantissa += c;
  const long long m = std::atoll(mantissa.c_str());
  const int exponent = std::atoi(t.c_str() + e + 1) - (digits - 1);
  for (long long candidate : {m - 1, m, m + 1}) {
    std::snprintf(buf, sizeof buf, "%s%llde%d", x < 0 ? "-" : "", candidate, exponent);
    if (std::strtof(buf, nullptr) == x) return true;
  }
  return false;
}

void expect_shortest_round_trip(float x) {
  const std::string t = text::shortest(x);
  const float back = std::strtof(t.c_str(), nullptr);
  ASSERT_EQ(back, x) << t;
  ASSERT_EQ(std::signbit(back), std::signbit(x)) << t;
  const int digits = significant_digits(t);
  ASSERT_LE(digits, 9) << t;
  if (digits > 1) ASSERT_FALSE(some_text_of_length_reads_back(x, digits - 1)) << t << " is longer than needed";
}

}  // namespace

TEST(NumberText, ShortestReadsBackAsTheSameFloatAndIsNoLonger) {
  std::vector<float> xs = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1.0f / 3, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN,
                           FLT_TRUE_MIN, -FLT_TRUE_MIN, 16777216.0f, 16777217.0f, 1e-7f, 123456.789f};
  // Every power of two: there the rounding interval is twice as wide above as below.
  for (int e = -149; e <= 127; ++e) xs.push_back(std::ldexp(1.0f, e));
  // Random bit patterns: every exponent equally, so subnormals and huge values too.
  std::mt19937 rng(24);
  for (int i = 0; i < 40000; ++i) {
    const float x = from_bits(std::uint32_t(rng()));
    if (std::isfinite(x)) xs.push_back(x);
  }
  for (int i = 0; i < 2000; ++i) xs.push_back(from_bits(std::uint32_t(rng() % 0x800000)));  // subnormals
  for (float x : xs) expect_shortest_round_trip(x);
}

TEST(NumberText, ShortestOfKnownValues) {
  EXPECT_EQ(text::shortest(0.1f), "0.1");
  EXPECT_EQ(text::shortest(0.125f), "0.125");
  EXPECT_EQ(text::shortest(-2.5f), "-2.5");
  EXPECT_EQ(text::shortest(1.0f / 3), "0.33333334");
  EXPECT_EQ(text::shortest(FLT_TRUE_MIN), "1e-45");
  EXPECT_EQ(text::shortest(FLT_MAX), "3.4028235e+38");
  // 2⁸⁷ = 1.54742504910672534e+26: its nearest 8 digits, 1.5474250e+26, lie outside the
  // float's interval, which reaches half as far below as above; one unit up, inside it, is.
  EXPECT_EQ(text::shortest(std::ldexp(1.0f, 87)), "1.5474251e+26");
  EXPECT_EQ(text::shortest(100.0f), "1e+02");  // %g's form: the fewest digits, not the fewest characters
}

TEST(NumberText, SignificantAndFixedRoundAsPrintfDocuments) {
  EXPECT_EQ(text::significant(1234.5, 3), "1.23e+03");
  EXPECT_EQ(text::significant(0.000123456, 2), "0.00012");
  EXPECT_EQ(text::significant(3.4028234663852886e38 / 4, 3), "8.51e+37");
  EXPECT_EQ(text::significant(0.1f, 9), "0.100000001");  // the float's own value, 9 digits
  EXPECT_EQ(text::fixed(2.5, 2), "2.50");
  EXPECT_EQ(text::fixed(1.005, 2), "1.00");  // 1.005 is 1.00499999999999989… in binary
  EXPECT_EQ(text::fixed(-1e15, 0), "-1000000000000000");
  EXPECT_EQ(text::fixed(FLT_MAX, 0), "340282346638528859811704183484516925440");
}

// The text read back as a number ("−" is the display's minus sign).
double read_display(std::string t) {
  for (std::size_t at; (at = t.find("−")) != std::string::npos;) t.replace(at, std::strlen("−"), "-");
  return std::strtod(t.c_str(), nullptr);
}

// What a heatmap cell may show: within its width, close to the value to the last digit shown,
// never a nonzero value as zero, and below 1 right to a hundredth at least (the one-decimal
// weights of a row did not visibly add up to 1).
TEST(NumberText, CellTextFitsAndNeverHidesAValue) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> exponent(-40, 6), sign(-1, 1);
  for (int trial = 0; trial < 20000; ++trial) {
    const float x = std::copysign(std::pow(10.0f, exponent(rng)), sign(rng));
    for (int width = 1; width <= 9; ++width) {
      const std::string t = text::num_fit(x, width);
      if (t.empty()) continue;
      ASSERT_LE(text::chars(t), width) << x;
      const double back = read_display(t);
      ASSERT_NE(back, 0.0) << x << " shown as " << t;
      const std::size_t e = t.find('e'), point = t.find('.');
      // Half a unit of the last digit shown, relative to the value's own power of ten if in e-form.
      const int decimals = point == std::string::npos ? 0 : int((e == std::string::npos ? t.size() : e) - point - 1);
      const double unit = std::pow(10.0, -decimals) * (e == std::string::npos ? 1 : std::pow(10.0, std::atoi(t.c_str() + e + 1)));
      ASSERT_LE(std::fabs(back - x), 0.5 * unit * (1 + 1e-6)) << x << " shown as " << t;
      if (std::fabs(x) < 1 && e == std::string::npos) ASSERT_LE(std::fabs(back - x), 0.005 * (1 + 1e-6)) << x << " shown as " << t;
    }
  }
}

TEST(NumberText, TinyWeightsInNarrowCells) {
  const float tiny = float(std::exp(-64.0));  // the saturated softmax's weight, 1.6 × 10⁻²⁸
  EXPECT_EQ(text::num_fit(tiny, 7), "1.6e-28");
  EXPECT_EQ(text::num_fit(tiny, 5), "2e-28");
  EXPECT_EQ(text::num_fit(tiny, 4), "");  // nothing rather than "0.00"
  EXPECT_EQ(text::num_fit(0.004f, 4), "4e-3");
  EXPECT_EQ(text::num_fit(0.0127f, 4), "0.01");
  EXPECT_EQ(text::num_fit(0.0f, 4), "0");
  EXPECT_EQ(text::num_fit(0.3f, 3), "0.3");  // as the display writes it: it fits
  EXPECT_EQ(text::num_fit(0.25f, 3), "");    // "0.3" would hide a second decimal that matters
}

// A colour scale's ends: their size to a few significant digits, in the display's form.
TEST(NumberText, RoundedToSignificantDigits) {
  EXPECT_EQ(text::num_rounded(-8.0076f, 3), "−8.01");
  EXPECT_EQ(text::num_rounded(8.0076f, 3), "8.01");
  EXPECT_EQ(text::num_rounded(0.55734f, 3), "0.557");
  EXPECT_EQ(text::num_rounded(1234.5f, 3), "1230");
  EXPECT_EQ(text::num_rounded(9.996f, 3), "10");
  EXPECT_EQ(text::num_rounded(1.0f, 3), "1");
  EXPECT_EQ(text::num_rounded(0.0f, 3), "0");
  EXPECT_EQ(text::num_rounded(-INFINITY, 3), "−∞");
  // Small sizes keep their digits: the unit is a power of ten of their own.
  EXPECT_EQ(text::num_rounded(0.0012345f, 2), "0.0012");
}

// A typed answer's numbers: a point always, a comma between digits only for a Spanish reader;
// what separates numbers (a comma and a space, a semicolon, ×, x, brackets) is skipped.
TEST(NumberText, ReadNumbersTakesTheReadersDecimalMark) {
  using text::read_numbers;
  using V = std::vector<double>;
  EXPECT_EQ(read_numbers("0.8044", false), V({0.8044}));
  EXPECT_EQ(read_numbers("0.8044", true), V({0.8044}));
  EXPECT_EQ(read_numbers("0,8044", true), V({0.8044}));
  EXPECT_EQ(read_numbers("0,8044", false), V({0, 8044}));  // in English a comma separates
  EXPECT_EQ(read_numbers("2,87; 0", true), V({2.87, 0}));
  EXPECT_EQ(read_numbers("2,87 0", true), V({2.87, 0}));
  EXPECT_EQ(read_numbers("[2,87, -0,5]", true), V({2.87, -0.5}));
  EXPECT_EQ(read_numbers("2.87, 0", true), V({2.87, 0}));
  EXPECT_EQ(read_numbers("2.87, 0", false), V({2.87, 0}));
  EXPECT_EQ(read_numbers("8x12", true), V({8, 12}));
  EXPECT_EQ(read_numbers("2×128×64", false), V({2, 128, 64}));
  EXPECT_EQ(read_numbers("(8, 12)", true), V({8, 12}));
  EXPECT_EQ(read_numbers("ninguno", true), V({}));
  EXPECT_EQ(read_numbers("1e-3", false), V({1e-3}));
}
