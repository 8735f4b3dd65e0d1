// The URL-fragment state: presets as bases, overrides, round trips, and bad input that is
// ignored with a note instead of breaking the page.
#include <gtest/gtest.h>

#include "state.h"

namespace {

lab::State defaults() { return lab::presets().front().state; }

TEST(StateFragment, PresetIsTheBaseAndKeysOverrideIt) {
  const auto r = lab::parse_fragment("#step=softmax&preset=random&query=4", defaults());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.state.preset, "random");
  EXPECT_EQ(r.state.step, lab::Step::softmax);
  EXPECT_EQ(r.state.query, 4);
  EXPECT_EQ(r.state.nq, 6);
  EXPECT_EQ(r.state.dk, 8);
}

TEST(StateFragment, EveryPresetRoundTrips) {
  for (const lab::Preset& p : lab::presets()) {
    const std::string text = lab::to_fragment(p.state);
    EXPECT_EQ(text, std::string("preset=") + p.name);
    const auto r = lab::parse_fragment(text, defaults());
    EXPECT_TRUE(r.notes.empty()) << p.name;
    EXPECT_EQ(r.state, p.state) << p.name;
  }
}

TEST(StateFragment, EditedStateRoundTripsExactly) {
  lab::State s = lab::find_preset("cross")->state;
  s.step = lab::Step::mask;
  s.query = 3;
  s.nk = 5;
  s.scale = lab::ScaleChoice::custom;
  s.custom_scale = 0.1f;
  s.causal = lab::CausalChoice::bottom_right;
  s.blocked = {{0, 1}, {2, 4}};
  s.pad = {5, 2};
  s.q.assign(std::size_t(2) * s.nq * s.dk, 0.3f);
  s.q[5] = -1.25f;
  s.theme = "dark";
  lab::normalize(s);
  const std::string text = lab::to_fragment(s);
  const auto r = lab::parse_fragment(text, defaults());
  EXPECT_TRUE(r.notes.empty()) << text;
  EXPECT_EQ(r.state, s) << text;
  // The complete form reads back the same too.
  EXPECT_EQ(lab::parse_fragment(lab::to_fragment(s, true), defaults()).state, s);
}

TEST(StateFragment, BadKeysAndValuesAreIgnoredWithANote) {
  const auto r = lab::parse_fragment(
      "preset=causal-3x2&step=sideways&query=-1&n=0&dk=abc&scale=nan&colour=red&theme=dark&justtext&q=1,2",
      defaults());
  EXPECT_EQ(r.notes.size(), 8u);
  for (const std::string& note : r.notes) EXPECT_NE(note.find("ignored"), std::string::npos) << note;
  const lab::State& s = r.state;
  EXPECT_EQ(s.step, lab::find_preset("causal-3x2")->state.step);
  EXPECT_EQ(s.nq, 3);
  EXPECT_EQ(s.dk, 2);
  EXPECT_EQ(s.scale, lab::ScaleChoice::inv_sqrt_dk);
  EXPECT_EQ(s.theme, "dark");  // the good key still applies
  EXPECT_EQ(s.q, lab::find_preset("causal-3x2")->state.q);
}

TEST(StateFragment, UnknownPresetKeepsTheBase) {
  const auto r = lab::parse_fragment("preset=nope&step=output", defaults());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.state.preset, "causal-3x2");
  EXPECT_EQ(r.state.step, lab::Step::output);
}

TEST(StateFragment, PercentEncodingAndLimits) {
  const auto r = lab::parse_fragment("preset=cross&pad=7%2C3&block=0%3A1&n=2049", defaults());
  EXPECT_EQ(r.state.pad, (std::vector<int>{7, 3}));
  EXPECT_EQ(r.state.blocked, (std::vector<std::pair<int, int>>{{0, 1}}));
  EXPECT_EQ(r.notes.size(), 1u);  // n beyond 2048
}

TEST(StateFragment, NormalizeKeepsIndicesInRange) {
  const auto r = lab::parse_fragment("preset=causal-3x2&query=9&attn=self&nk=7", defaults());
  EXPECT_EQ(r.state.query, 2);
  EXPECT_EQ(r.state.nk, 3);  // self-attention ties n_k to n_q
}

TEST(StateFragment, NeverThrowsOnJunk) {
  const char* junk[] = {"", "#", "&&&", "=", "==x", "%", "%zz=%", "q=,,,", "block=1:", "pad=1,2,3,4,5,6,7,8,9",
                        "seed=99999999999999", "scale=1e39", "\xff\xfe=\x01"};
  for (const char* text : junk) EXPECT_NO_THROW(lab::parse_fragment(text, defaults())) << text;
}

}  // namespace
