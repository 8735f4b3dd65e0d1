// State objects and host messages decoded into fragments for the one state parser.
#include <gtest/gtest.h>

#include "message.h"
#include "state.h"

TEST(Message, SetMessageBecomesAFragment) {
  const lab::DecodedState d =
      lab::decode_set_message(R"({"type":"attention-lab:set","state":{"step":"softmax","query":2,"causal":true}})");
  ASSERT_TRUE(d.accepted);
  EXPECT_TRUE(d.notes.empty());
  const lab::State s = lab::parse_fragment(d.fragment, lab::find_preset("causal-3x2")->state).state;
  EXPECT_EQ(s.step, lab::Step::softmax);
  EXPECT_EQ(s.query, 2);
  EXPECT_EQ(s.causal, attn::Causal::top_left);
}

TEST(Message, ValuesAreEncodedNotInterpreted) {
  // A value holding '&' and '=' must stay one value, not smuggle in another key.
  const lab::DecodedState d = lab::decode_state_object(R"({"preset":"x&step=output","scale":0.125})");
  ASSERT_TRUE(d.accepted);
  const lab::ParseResult r = lab::parse_fragment(d.fragment, lab::State{});
  EXPECT_EQ(r.state.step, lab::Step::scores);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "ignored preset=x&step=output: no such preset");
  EXPECT_EQ(r.state.scale, attn::ScaleMode::custom);
  EXPECT_FLOAT_EQ(r.state.custom_scale, 0.125f);
}

TEST(Message, WrongShapesAreRefusedWhole) {
  for (const char* bad : {"", "null", "[1]", R"({"type":"attention-lab:set"})", R"({"type":"other","state":{}})",
                          R"({"type":"attention-lab:set","state":[1,2]})",
                          R"({"type":"attention-lab:set","state":{"a":{"b":{"c":{}}}}})"}) {
    SCOPED_TRACE(bad);
    const lab::DecodedState d = lab::decode_set_message(bad);
    EXPECT_FALSE(d.accepted);
    EXPECT_TRUE(d.fragment.empty());
    EXPECT_EQ(d.notes.size(), 1u);
  }
}

TEST(Message, NonScalarValuesAreSkippedWithANote) {
  const lab::DecodedState d =
      lab::decode_state_object(R"({"step":"mask","q":[1,[2]],"pad":[3,5],"seed":null})");
  ASSERT_TRUE(d.accepted);
  EXPECT_EQ(d.fragment, "step=mask&pad=3,5");
  EXPECT_EQ(d.notes.size(), 2u);
}
