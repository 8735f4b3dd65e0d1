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
