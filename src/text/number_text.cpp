#include "number_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace text {

std::string significant(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

std::string fixed(double x, int decimals) {
  // Enough for ±FLT_MAX's 39 digits at a few decimals; %f of a larger double is cut, never
  // overrun (snprintf), and no caller writes one.
  char buf[384];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

namespace {

// The decimal of `digits` significant digits one unit further from zero than x rounded to
// that many digits.
std::string one_unit_out(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, std::fabs(x));
  std::string mantissa;
  const char* c = buf;
  for (; *c != 'e'; ++c)
    if (*c != '.') mantissa += *c;
  const int exponent = std::atoi(c + 1) - (digits - 1);
  std::snprintf(buf, sizeof buf, "%llde%d", std::atoll(mantissa.c_str()) + 1, exponent);
  return significant(std::copysign(std::strtod(buf, nullptr), x), digits);
}

}  // namespace

std::string shortest(float x) {
  // Nine significant digits always read back as the same float (FLT_DECIMAL_DIG); fewer often
  // do. Of the texts of one length only the two nearest x can read back: the nearest (%.*g),
  // and, at a power of two, whose rounding interval reaches twice as far out as in, the next
  // one out. The first length where one does is the shortest.
  const auto reads_back = [x](const std::string& t) { return std::strtof(t.c_str(), nullptr) == x; };
  for (int digits = 1; digits < 9; ++digits) {
    if (std::string t = significant(double(x), digits); reads_back(t)) return t;
    if (std::string t = one_unit_out(double(x), digits); reads_back(t)) return t;
  }
  return significant(double(x), 9);
}

// [SECTION] the interface's display

namespace {

std::string real_minus(const std::string& s) { return !s.empty() && s[0] == '-' ? "−" + s.substr(1) : s; }

// x in powers of ten with `digits` significant digits and no padded exponent: "1.6e-28", "4e-4".
std::string powers_of_ten(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  const std::string s = buf;
  const std::size_t e = s.find('e');
  return real_minus(s.substr(0, e)) + "e" + std::to_string(std::atoi(s.c_str() + e + 1));
}

bool reads_as_zero(const std::string& s) { return s.find_first_not_of("-−0.") == std::string::npos; }

}  // namespace

std::string num(float x) {
  if (std::isinf(x)) return x < 0 ? "−∞" : "∞";
  if (std::isnan(x)) return "NaN";
  const float a = std::fabs(x);
  std::string s = a != 0 && (a < 1e-3f || a >= 1e5f) ? significant(x, 3) : fixed(x, 4);
  // Trim trailing zeros ("2.5000" -> "2.5") but keep one digit after the point.
  if (s.find('.') != std::string::npos && s.find('e') == std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return real_minus(s);
}

std::string num_rounded(float x, int digits) {
  if (!std::isfinite(x) || x == 0) return num(x);
  // In double, and by powers of ten rather than through text: no locale, no float rounding of 10^k.
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(double(x)))) - (digits - 1));
  return num(float(std::round(double(x) / unit) * unit));
}

int chars(const std::string& utf8) {
  int n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;  // UTF-8 continuation bytes are not characters
  return n;
}

std::string num_fit(float x, int max_chars) {
  std::string shown = num(x);
  // Two decimals at least below 1, so that a row of weights visibly adds up to 1 (0.1, 0.2, 0.2,
  // 0.3, 0.2 would not: 0.12, 0.16, 0.24, 0.27, 0.21 does, to a hundredth).
  const int least = std::fabs(x) >= 1 ? 0 : 2;
  for (int decimals = 3; decimals >= least && chars(shown) > max_chars; --decimals) {
    shown = fixed(x, decimals);
    if (reads_as_zero(shown) && shown[0] == '-') shown = shown.substr(1);  // no "−0.0"
    shown = real_minus(shown);
  }
  if (x != 0 && std::isfinite(x) && reads_as_zero(shown)) {
    shown = powers_of_ten(x, 2);
    if (chars(shown) > max_chars) shown = powers_of_ten(x, 1);
  }
  return chars(shown) <= max_chars ? shown : "";
}

std::vector<double> read_numbers(std::string_view typed, bool decimal_comma) {
  std::string text(typed);
  const auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
  if (decimal_comma)
    for (std::size_t i = 1; i + 1 < text.size(); ++i)
      if (text[i] == ',' && digit(i - 1) && digit(i + 1)) text[i] = '.';
  std::vector<double> out;
  const char* p = text.c_str();
  while (*p) {
    if (std::strchr("0123456789-+.", *p) == nullptr) {
      ++p;
      continue;
    }
    char* end = nullptr;
    const double x = std::strtod(p, &end);
    if (end == p) {
      ++p;
      continue;
    }
    out.push_back(x);
    p = end;
  }
  return out;
}

}  // namespace text
