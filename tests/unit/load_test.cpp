// Loaded data (src/model/load.h) through later changes of the state.
#include <gtest/gtest.h>

#include "load.h"
#include "state.h"

namespace {

const char* kRequest = R"({"q": [[1, 0], [0, 1], [1, 1]], "k": [[1, 0], [0, 1], [1, 1]], "v": [[1, 2], [3, 4], [5, 6]]})";

TEST(Load, TokensAndSourceSurviveALiveChangeOfStepOrTheme) {
  const lab::Loaded loaded = lab::load_request(kRequest, R"({"tokens": ["the", "cat", "sat"], "name": "q.npy"})", {});
  ASSERT_EQ(loaded.error, "");
  const lab::ParseResult changed = lab::parse_fragment("step=softmax&theme=dark", loaded.state, true);
  EXPECT_EQ(changed.state.step, lab::Step::softmax);
  EXPECT_EQ(changed.state.q, loaded.state.q);
  EXPECT_EQ(changed.state.query_tokens, (std::vector<std::string>{"the", "cat", "sat"}));
  EXPECT_EQ(changed.state.key_tokens, changed.state.query_tokens);
  EXPECT_EQ(changed.state.source, "q.npy");
}

TEST(Load, ALinkReplacingTheDataForgetsItsTokens) {
  const lab::Loaded loaded = lab::load_request(kRequest, R"({"tokens": ["the", "cat", "sat"]})", {});
  ASSERT_EQ(loaded.error, "");
  const lab::ParseResult replaced = lab::parse_fragment("attn=self", loaded.state, true);
  EXPECT_TRUE(replaced.state.query_tokens.empty());
  EXPECT_TRUE(replaced.state.source.empty());
}

}  // namespace
