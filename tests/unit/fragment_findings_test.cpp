// Inputs the fragment fuzzer (tests/fuzz/fragment_fuzz.cpp) found, kept as regressions.
#include <gtest/gtest.h>

#include <string>

#include "state.h"

using namespace std::string_literals;

TEST(FragmentFindings, NulBytesAreNotNumbers) {
  // strtof/strtol stop at a NUL, which once let "\0" pass for 0.
  const lab::ParseResult r = lab::parse_fragment("scale=\0\0004&seed=\0"s, lab::State{});
  EXPECT_EQ(r.state.scale, lab::ScaleChoice::inv_sqrt_dk);
  EXPECT_EQ(r.state.seed, lab::State{}.seed);
  EXPECT_EQ(r.notes.size(), 2u);
}

TEST(FragmentFindings, ANamedScaleForgetsTheCustomOne) {
  // A custom scale followed by a named one left the custom value behind, invisible in the
  // link, so the link did not reproduce the state.
  const lab::ParseResult r = lab::parse_fragment("n=8&dk=64&scale=0.3&scale=none", lab::State{});
  const lab::ParseResult again = lab::parse_fragment(lab::to_fragment(r.state), lab::State{});
  EXPECT_TRUE(again.state == r.state);
}
