// Inputs the fragment fuzzer (tests/fuzz/fragment_fuzz.cpp) found, kept as regressions.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "state.h"

using namespace std::string_literals;

TEST(FragmentFindings, NulBytesAreNotNumbers) {
  // strtof/strtol stop at a NUL, which once let "\0" pass for 0.
  const lab::ParseResult r = lab::parse_fragment("scale=\0\0004&seed=\0"s, lab::State{});
  EXPECT_EQ(r.state.scale, attn::ScaleMode::inv_sqrt_dk);
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

TEST(FragmentFindings, HugeValuesCannotOverflowTheScores) {
  // 1e30 in Q would make Q Kᵀ infinite and the softmax NaN: refused in links, clamped when
  // typed into the interface.
  const lab::ParseResult r = lab::parse_fragment("preset=causal-3x2&q=1e30,0,2,0,3,0&scale=1e9", lab::State{});
  EXPECT_EQ(r.notes.size(), 2u);
  EXPECT_EQ(r.state.q, lab::find_preset("causal-3x2")->state.q);
  lab::State typed = r.state;
  typed.q.assign(6, 1e30f);
  typed.scale = attn::ScaleMode::custom;
  typed.custom_scale = std::numeric_limits<float>::infinity();
  lab::normalize(typed);
  EXPECT_EQ(typed.q, std::vector<float>(6, lab::Limits::max_value));
  EXPECT_EQ(typed.custom_scale, 1.0f);
}

TEST(FragmentFindings, TrainingSettingsOutsideTheTrainingViewStayInTheLink) {
  // A model setting given outside view=train applied to the model but was written back only in
  // view=train, so the link lost it (fuzzer findings in corpus/fragment/finding-*).
  for (const char* fragment : {"seq=12", "task=sort&vocab=20", "q=g&pad=4,5,5,2&seq=2", "spf=9&dk=64", "play=1", "vs=scale:none"}) {
    const lab::ParseResult r = lab::parse_fragment(fragment, lab::State{});
    for (bool complete : {false, true}) {
      const lab::ParseResult again = lab::parse_fragment(lab::to_fragment(r.state, complete), lab::State{});
      EXPECT_TRUE(again.state == r.state) << fragment << " → " << lab::to_fragment(r.state, complete);
      EXPECT_TRUE(again.notes.empty()) << fragment;
    }
  }
}
