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

namespace {

// The text with a "|" where each soft line begins.
std::string soft(std::string_view s, float width) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at : text::soft_breaks(s, width, [](std::string_view piece) { return 10.0f * float(piece.size()); })) {
    out += std::string(s.substr(from, at - from)) + "|";
    from = at;
  }
  return out + std::string(s.substr(from));
}

}  // namespace

TEST(SoftBreaks, KeepEveryCharacterAndBreakAfterTheLastSpaceThatFits) {
  EXPECT_EQ(soft("one two three four", 90), "one two |three |four");
  EXPECT_EQ(soft("one two", 1000), "one two");
  EXPECT_EQ(soft("ab   cd", 20), "ab   |cd");  // spaces hang past the edge, never start a line
  EXPECT_EQ(soft("", 50), "");
}

TEST(SoftBreaks, CutAWordWiderThanTheLineAndKeepItsOwnLineBreaks) {
  EXPECT_EQ(soft("x 1234567 y", 50), "x |12345|67 y");
  EXPECT_EQ(soft("ab\ncd", 50), "ab\n|cd");
  // Bytes of one character stay together: "ñ" is two bytes (20 "pixels" here), never split.
  EXPECT_EQ(soft("a\xc3\xb1" "b", 30), "a\xc3\xb1|b");
}
