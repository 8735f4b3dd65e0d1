// Numbers as text, one function per purpose:
//   shortest()    where the value must survive (links, states): reads back as the same float;
//   significant() where a reader needs its size, not every digit (error messages);
//   fixed()       where numbers line up at a number of decimals (tables, readouts);
//   read_numbers() the numbers a person typed (a practice answer), in their language's notation.
//   num(), num_fit() the interface's display: a real minus sign, trimmed zeros, cells' widths.
// The first three write the C locale's ASCII ("-1.5e-07").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace text {

// The shortest decimal text that strtof reads back as exactly x (at most 9 significant
// digits, printf's %g form): "0.1", "1e-45", "3.4028235e+38".
std::string shortest(float x);

// x rounded to `digits` significant digits (printf's %.*g): significant(1234.5, 3) = "1.23e+03".
std::string significant(double x, int digits);

// x rounded to `decimals` digits after the point (printf's %.*f): fixed(2.5, 2) = "2.50".
std::string fixed(double x, int decimals);

// [SECTION] the interface's display (ui/explain.h), with a real minus sign "−".
// Up to 4 decimals with trailing zeros trimmed ("2.5"), powers of ten for magnitudes below 1e-3
// or from 1e5 ("1.6e-28"), −∞ and ∞ for masked cells, NaN.
std::string num(float x);
// The same number in at most `max_chars` characters ("" if it cannot fit): for values inside
// small heatmap cells. Fewer decimals where needed, but at least two for |x| < 1 (a row of
// weights that visibly adds up to 1; "0" for 0.3 would read as an exact zero), and never zeros
// for a number that is not zero: a tiny weight is "1.6e-28" or "2e-28" (or nothing), not "0.000".
std::string num_fit(float x, int max_chars);
// num() of x rounded to `digits` significant digits: a colour scale's ends, whose size a reader
// needs and not their fourth decimal ("−8.01" for −8.0076 at 3, "0.557", "1.23e-6").
std::string num_rounded(float x, int digits);
// Characters of a UTF-8 text (not bytes): for columns aligned with spaces in a monospaced font.
int chars(const std::string& utf8);

// The numbers in a typed text, in order, whatever lies between them: "0.8044", "2.87, 0",
// "8x12", "(8, 12)". With `decimal_comma` (a Spanish reader), a comma between two digits is
// the decimal mark, so "0,8044" is one number and "2,87; 0" or "2,87 0" two; a point still
// reads as one too.
std::vector<double> read_numbers(std::string_view typed, bool decimal_comma);

}  // namespace text
