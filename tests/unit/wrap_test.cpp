// Sentences wrapped between words only (src/text/wrap.h), with a stand-in font of 10 pixels a
// character: line breaks worked out by hand.
#include <gtest/gtest.h>

#include <string>

#include "wrap.h"

namespace {

std::string wrap(std::string_view s, float width) {
  return text::wrap_at_spaces(s, width, [](std::string_view piece) { return 10.0f * float(piece.size()); });
}

}  // namespace

TEST(Wrap, BreaksBetweenWordsNeverInsideANumber) {
  // 12 characters a line: ImGui would end the first line after "0." of 0.0429.
  EXPECT_EQ(wrap("weight 0.0429 on k2", 120), "weight\n0.0429 on k2");
  EXPECT_EQ(wrap("a, b. c", 1000), "a, b. c");  // fits: unchanged
  EXPECT_EQ(wrap("one two three four", 90), "one two\nthree\nfour");
}

TEST(Wrap, KeepsItsLineBreaksAndLetsALongWordOverflow) {
  EXPECT_EQ(wrap("ab cd\nef gh", 50), "ab cd\nef gh");
  EXPECT_EQ(wrap("x 1234567890123 y", 50), "x\n1234567890123\ny");
  EXPECT_EQ(wrap("", 50), "");
}
