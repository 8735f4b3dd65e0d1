// Step 0's state: the input X and the projections W_Q, W_K, W_V in links (x, wq, wk, wv,
// dmodel, proj), the old links that typed Q = K = V as q, and step=input.
#include <gtest/gtest.h>

#include "state.h"

namespace {

lab::ParseResult parse(const char* text) { return lab::parse_fragment(text, lab::State{}); }

TEST(Projections, SelfAttentionProjectsByDefaultAndTheLessonExampleDoesNot) {
  EXPECT_TRUE(lab::State{}.projected());
  const lab::Preset* lesson = lab::find_preset("causal-3x2");
  ASSERT_NE(lesson, nullptr);
  EXPECT_FALSE(lesson->state.projected());
  EXPECT_EQ(lesson->state.q, (std::vector<float>{1, 0, 2, 0, 3, 0}));  // the worked example's Q = K = V
}

TEST(Projections, TypedInputAndWeightsRoundTrip) {
  const auto r = parse("n=2&dk=2&dmodel=3&x=1,2,3,4,5,6&wq=1,0,0,1,1,1&wk=0.5,0,0,0.5,0,0&wv=1,1,1,1,1,1&step=input");
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();
  const lab::State& s = r.state;
  EXPECT_TRUE(s.projected());
  EXPECT_EQ(s.step, lab::Step::input);
  EXPECT_EQ(s.dmodel, 3);
  EXPECT_EQ(s.x, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(s.wk, (std::vector<float>{0.5f, 0, 0, 0.5f, 0, 0}));
  EXPECT_EQ(lab::parse_fragment(lab::to_fragment(s), lab::State{}).state, s);
  EXPECT_EQ(lab::parse_fragment(lab::to_fragment(s, true), lab::State{}).state, s);
}

TEST(Projections, AnOldLinkThatTypesQStillMeansQEqualsKEqualsV) {
  const auto r = parse("q=1,0,2,0,3,0&causal=1");
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();
  EXPECT_FALSE(r.state.project);
  EXPECT_EQ(r.state.q, (std::vector<float>{1, 0, 2, 0, 3, 0}));
  // Said with proj=1, q has no place: Q is X·W_Q.
  const auto p = parse("proj=1&q=1,0,2,0,3,0");
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("ignored q"), std::string::npos) << p.notes[0];
  EXPECT_TRUE(p.state.q.empty());
}

TEST(Projections, MatricesOfTheWrongSizeOrModeAreIgnoredWithANote) {
  const auto r = parse("dmodel=3&wq=1,2&proj=1");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("ignored wq: its size"), std::string::npos) << r.notes[0];
  const auto cross = parse("attn=cross&x=1,2,3,4");
  ASSERT_EQ(cross.notes.size(), 1u);
  EXPECT_NE(cross.notes[0].find("only in self-attention"), std::string::npos) << cross.notes[0];
  const auto bad = parse("proj=2&dmodel=abc&x=1,nope");
  EXPECT_EQ(bad.notes.size(), 3u);
  EXPECT_EQ(bad.state, lab::parse_fragment("", lab::State{}).state);
}

TEST(Projections, DmodelIsTheWalkthroughsOutsideTheTrainingLab) {
  EXPECT_EQ(parse("dmodel=6").state.dmodel, 6);
  const auto train = parse("view=train&dmodel=48");
  EXPECT_EQ(train.state.train.d_model, 48);
  EXPECT_EQ(train.state.dmodel, lab::State{}.dmodel);
}

}  // namespace
