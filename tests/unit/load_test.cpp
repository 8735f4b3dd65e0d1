// Loaded data (src/model/load.h) through later changes of the state.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "float64_attention.h"
#include "lab.h"
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

TEST(Load, APageThatCarriesItsDataHasNoNoteOnLinks) {
  const auto mentions_link = [](const lab::Loaded& l) {
    return std::any_of(l.notes.begin(), l.notes.end(), [](const std::string& n) { return n.find("link") != std::string::npos; });
  };
  EXPECT_TRUE(mentions_link(lab::load_request(kRequest, R"({"name": "q.npy"})", {})));
  EXPECT_TRUE(mentions_link(lab::load_request(kRequest, R"({"link": true})", {})));
  const lab::Loaded quiet = lab::load_request(kRequest, R"({"link": false})", {});
  ASSERT_EQ(quiet.error, "");
  EXPECT_FALSE(mentions_link(quiet));
  EXPECT_EQ(lab::load_request(kRequest, R"({"link": "no"})", {}).error, "link: expected true or false");
}

// Two sequences of four query heads sharing two K/V heads, each head with its own removed
// cells and the second sequence padded to 3 keys: every head kept, each shown as loaded.
struct Heads {
  testing_ref::Problem64 p;
  std::vector<bool> allowed;  // (batch, heads, nq, nk)
  std::string json;
};

Heads four_heads(double phase = 0) {
  Heads h;
  testing_ref::Problem64& p = h.p;
  p.batch = 2, p.heads = 4, p.kv_heads = 2, p.nq = 3, p.nk = 4, p.dk = 2, p.dv = 3;
  p.scale = 1 / std::sqrt(2.0);
  auto values = [phase](std::size_t n, double step) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::round(std::sin(double(i) * step + phase) * 40) / 20;  // exact in float
    return v;
  };
  p.q = values(std::size_t(2) * 4 * 3 * 2, 0.7);
  p.k = values(std::size_t(2) * 2 * 4 * 2, 1.3);
  p.v = values(std::size_t(2) * 2 * 4 * 3, 0.4);
  nlohmann::json mask;
  for (int b = 0; b < 2; ++b) {
    nlohmann::json heads;
    for (int hd = 0; hd < 4; ++hd) {
      nlohmann::json rows;
      for (int i = 0; i < 3; ++i) {
        nlohmann::json row;
        for (int j = 0; j < 4; ++j) {
          const bool ok = !(b == 1 && j == 3) && !(j == hd && i == 1);  // padding; head hd removes (1, hd)
          row.push_back(ok);
          h.allowed.push_back(ok);
          p.mask.push_back(ok ? 0.0 : -std::numeric_limits<double>::infinity());
        }
        rows.push_back(row);
      }
      heads.push_back(rows);
    }
    mask.push_back(heads);
  }
  auto tensor = [](const std::vector<double>& flat, std::array<int, 4> dims) {
    nlohmann::json t = nlohmann::json::array();
    std::size_t at = 0;
    for (int a = 0; a < dims[0]; ++a) {
      nlohmann::json x;
      for (int b = 0; b < dims[1]; ++b) {
        nlohmann::json y;
        for (int c = 0; c < dims[2]; ++c) {
          nlohmann::json z;
          for (int d = 0; d < dims[3]; ++d) z.push_back(flat[at++]);
          y.push_back(z);
        }
        x.push_back(y);
      }
      t.push_back(x);
    }
    return t;
  };
  h.json = nlohmann::json{{"q", tensor(p.q, {2, 4, 3, 2})}, {"k", tensor(p.k, {2, 2, 4, 2})},
                          {"v", tensor(p.v, {2, 2, 4, 3})}, {"mask", mask}}.dump();
  return h;
}

TEST(LoadHeads, EveryHeadIsKeptAndEachShowsItsOwnQKVAndMask) {
  const Heads h = four_heads();
  const lab::Loaded loaded = lab::load_request(h.json, R"({"head": 2})", {});
  ASSERT_EQ(loaded.error, "");
  const lab::State& s = loaded.state;
  ASSERT_EQ(lab::loaded_head_count(s), 4);
  for (int head = 0; head < 4; ++head) {
    lab::State shown = s;
    ASSERT_TRUE(lab::show_head(shown, head));
    // The second sequence's first query row of Q, and of K its K/V head's first row.
    EXPECT_EQ(shown.q[3 * 2], float(h.p.q[((1 * 4 + head) * 3) * 2]));
    EXPECT_EQ(shown.k[4 * 2], float(h.p.k[((1 * 2 + head / 2) * 4) * 2]));
    EXPECT_EQ(shown.pad, (std::vector<int>{4, 3}));
    EXPECT_EQ(shown.blocked, (std::vector<std::pair<int, int>>{{1, head}}));
  }
  EXPECT_EQ(s.head, 2);
  lab::State beyond = s;
  EXPECT_FALSE(lab::show_head(beyond, 4));
  EXPECT_EQ(beyond, s);
}

TEST(LoadHeads, HeadIsAStateKeyOfThePageAndALiveChangeKeepsTheHeads) {
  const lab::Loaded loaded = lab::load_request(four_heads().json, "", {});
  ASSERT_EQ(loaded.error, "");
  const lab::ParseResult r = lab::parse_fragment("head=3&theme=dark", loaded.state, true);
  EXPECT_TRUE(r.notes.empty()) << r.notes[0];
  EXPECT_EQ(r.state.head, 3);
  lab::State expected = loaded.state;
  lab::show_head(expected, 3);
  EXPECT_EQ(r.state.q, expected.q);
  EXPECT_EQ(lab::loaded_head_count(r.state), 4);
  const auto pairs = lab::state_pairs(r.state, true);
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), std::pair<std::string, std::string>{"head", "3"}), pairs.end());
  EXPECT_EQ(lab::to_fragment(r.state).find("head="), std::string::npos);  // a link has no data
  // Without loaded heads the key is ignored with a note; a new shape forgets the heads.
  EXPECT_EQ(lab::parse_fragment("head=1", lab::State{}, true).notes.size(), 1u);
  EXPECT_EQ(lab::loaded_head_count(lab::parse_fragment("nq=2", loaded.state, true).state), 1);
}

TEST(LoadHeads, TheHeadsWeightsAreFloat64Attentions) {
  const Heads h = four_heads();
  const testing_ref::Result64 expected = testing_ref::attention64(h.p);
  const lab::Loaded loaded = lab::load_request(h.json, "", {});
  ASSERT_EQ(loaded.error, "");
  for (int batch = 0; batch < 2; ++batch) {
    lab::State s = loaded.state;
    s.batch = batch;
    const lab::Lab lab(s);
    const std::vector<attn::Matrix>& weights = lab.head_weights();
    ASSERT_EQ(weights.size(), 4u);
    for (int head = 0; head < 4; ++head)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
          EXPECT_NEAR(weights[std::size_t(head)](i, j), expected.weights[((std::size_t(batch) * 4 + head) * 3 + i) * 4 + j],
                      1e-6)
              << "sequence " << batch << " head " << head << " (" << i << ", " << j << ")";
  }
}

// Two layers of four heads: {"layers": [request, request]}, kept layer by layer.
TEST(LoadHeads, LayersAreKeptLayerByLayerWithTheirOwnWeights) {
  const Heads first = four_heads(), second = four_heads(0.5);
  const std::string layers = "{\"layers\": [" + first.json + ", " + second.json + "]}";
  const lab::Loaded loaded = lab::load_request(layers, R"({"layer": 1, "head": 2})", {});
  ASSERT_EQ(loaded.error, "");
  ASSERT_EQ(lab::loaded_head_count(loaded.state), 8);
  EXPECT_EQ(lab::loaded_layer_count(loaded.state), 2);
  EXPECT_EQ(loaded.state.head, 6);  // layer 1's head 2
  const lab::LoadedHead& shown = (*loaded.state.loaded_heads)[6];
  EXPECT_EQ(shown.layer, 1);
  EXPECT_EQ(shown.head, 2);
  const testing_ref::Result64 expected = testing_ref::attention64(second.p);
  const lab::Lab lab(loaded.state);
  const std::vector<attn::Matrix>& weights = lab.head_weights();
  ASSERT_EQ(weights.size(), 8u);
  for (int head = 0; head < 4; ++head)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        EXPECT_NEAR(weights[std::size_t(4 + head)](i, j), expected.weights[((std::size_t(0) * 4 + head) * 3 + i) * 4 + j],
                    1e-6);
}

TEST(LoadHeads, LayersOfAnotherShapeOrAnUnknownLayerAreRefused) {
  const std::string one = four_heads().json;
  const std::string other = R"({"q": [[1, 2]], "k": [[1, 2]], "v": [[3]]})";
  EXPECT_EQ(lab::load_request("{\"layers\": [" + one + ", " + other + "]}", "", {}).error,
            "layers[1]: its shape differs from layers[0]'s, and the layers' heads are shown side by side");
  EXPECT_EQ(lab::load_request(R"({"layers": [{"q": [[1]], "k": [[1]]}]})", "", {}).error.rfind("layers[0].", 0), 0u);
  EXPECT_EQ(lab::load_request(R"({"layers": []})", "", {}).error.rfind("layers: expected", 0), 0u);
  EXPECT_EQ(lab::load_request("{\"layers\": [" + one + "]}", R"({"layer": 1})", {}).error,
            "layer: expected a layer from 0 to 0, the layers given");
}

}  // namespace
