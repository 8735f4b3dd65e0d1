// Numbers out of range in a link: set to the nearest valid value (or the nearest valid
// combination), so an experiment view keeps its controls, with a note naming the key, the
// value given and the value used. Expected values come from the stated limits (lab::Limits,
// train::validate) and from the rules themselves, searched here independently.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gradients.h"
#include "heads.h"
#include "state.h"

namespace {

lab::ParseResult parse(const char* text) { return lab::parse_fragment(text, lab::presets().front().state); }

// The one note about `key`: it names the value given and the value used.
void expect_note(const lab::ParseResult& r, const std::string& key, const std::string& given, const std::string& used) {
  const auto note = std::find_if(r.notes.begin(), r.notes.end(),
                                 [&](const std::string& n) { return n.rfind(key + "=" + given + " ", 0) == 0; });
  ASSERT_NE(note, r.notes.end()) << "no note about " << key << "=" << given;
  EXPECT_NE(note->find(", so " + key + "=" + used + " is used"), std::string::npos) << *note;
}

TEST(Clamp, RangesClampToTheNearestEnd) {
  {
    const auto r = parse("view=scaling&dk=100000");
    EXPECT_EQ(r.state.dk, lab::Limits::max_scaling_dk);
    ASSERT_EQ(r.notes.size(), 1u);
    expect_note(r, "dk", "100000", std::to_string(lab::Limits::max_scaling_dk));
  }
  {
    const auto r = parse("view=gradients&mult=1e9");
    EXPECT_EQ(r.state.mult, lab::Limits::max_mult);
    expect_note(r, "mult", "1e9", std::to_string(int(lab::Limits::max_mult)));
  }
  {
    const auto r = parse("n=-5&query=99999");
    EXPECT_EQ(r.state.nq, 1);
    EXPECT_EQ(r.state.query, 0);
    expect_note(r, "n", "-5", "1");
    expect_note(r, "query", "99999", "0");  // at most the last row of n = 1
  }
  {
    // Outside view=scaling d_k stops at the walkthrough's limit: one note, with the final value.
    const auto r = parse("dk=100000");
    EXPECT_EQ(r.state.dk, lab::Limits::max_d);
    ASSERT_EQ(r.notes.size(), 1u);
    expect_note(r, "dk", "100000", std::to_string(lab::Limits::max_d));
  }
}

TEST(Clamp, TilingKeepsTheTileWithinTheSequence) {
  {
    const auto r = parse("view=tiling&n=24&tile=999");
    EXPECT_EQ(r.state.nq, 24);
    EXPECT_EQ(r.state.tile, 24);
    ASSERT_EQ(r.notes.size(), 1u);  // one note for tile, naming the value the link gave
    expect_note(r, "tile", "999", "24");
  }
  {
    const auto r = parse("view=tiling&n=100");
    EXPECT_EQ(r.state.nq, lab::Limits::max_tiling_n);
    expect_note(r, "n", "100", std::to_string(lab::Limits::max_tiling_n));
  }
  // A tile the link did not name is not a change to report.
  EXPECT_TRUE(parse("view=tiling&n=2").notes.empty());
}

// The largest count of K/V heads at most `kv` that divides `heads`, by search.
int dividing_kv_heads(int heads, int kv) {
  for (int k = std::min(kv, heads); k >= 1; --k)
    if (heads % k == 0) return k;
  return 1;
}

TEST(Clamp, HeadsGetAKvCountThatDivides) {
  for (const auto& [heads, kv] : {std::pair{99, 3}, {6, 4}, {5, 2}, {8, 16}, {16, 16}}) {
    const std::string text = "view=heads&heads=" + std::to_string(heads) + "&kvheads=" + std::to_string(kv);
    SCOPED_TRACE(text);
    const auto r = lab::parse_fragment(text, lab::presets().front().state);
    const int h = std::min(heads, lab::Limits::max_heads);
    const int k = dividing_kv_heads(h, std::min(kv, lab::Limits::max_heads));
    EXPECT_EQ(r.state.heads, h);
    EXPECT_EQ(r.state.kv_heads, k);
    EXPECT_EQ(r.state.heads % r.state.kv_heads, 0);
    if (h != heads) expect_note(r, "heads", std::to_string(heads), std::to_string(h));
    if (k != kv) expect_note(r, "kvheads", std::to_string(kv), std::to_string(k));
    if (h == heads && k == kv) EXPECT_TRUE(r.notes.empty());
  }
}

TEST(Clamp, HeadsAndGradientsStayWithinTheirViews) {
  {
    const auto r = parse("view=heads&n=100&dk=300");
    EXPECT_EQ(r.state.nq, experiments::kHeadsMaxSize);
    EXPECT_EQ(r.state.nk, experiments::kHeadsMaxSize);  // self-attention: n_k is n_q
    EXPECT_EQ(r.state.dk, experiments::kHeadsMaxSize);
    expect_note(r, "n", "100", std::to_string(experiments::kHeadsMaxSize));
    expect_note(r, "dk", "300", std::to_string(experiments::kHeadsMaxSize));
    EXPECT_EQ(r.notes.size(), 2u);
    // What the view computes with them is valid.
    EXPECT_NO_THROW(experiments::heads(r.state.heads, r.state.kv_heads, r.state.nq, r.state.nk, r.state.dk,
                                       r.state.dv, r.state.seed));
  }
  {
    const auto r = parse("view=gradients&row=50");
    EXPECT_EQ(r.state.row, experiments::kGradientsN - 1);
    expect_note(r, "row", "50", std::to_string(experiments::kGradientsN - 1));
  }
  // Elsewhere the walkthrough's own limits apply.
  EXPECT_EQ(parse("n=100&row=50").state.nq, 100);
}

// The value of one model setting nearest to `wanted` that train::validate accepts, by search.
template <class Set>
int nearest_valid(train::Config c, int wanted, Set set) {
  for (int distance = 0;; ++distance)
    for (int v : {wanted - distance, wanted + distance}) {
      set(c, v);
      if (train::validate(c).empty()) return v;
    }
}

TEST(Clamp, TheModelsSettingsFollowValidate) {
  {
    const auto r = parse("view=train&dk=9999&seq=1");
    const train::Config base = train::defaults(train::Task::reverse);
    const int dk = nearest_valid(base, 9999, [](train::Config& c, int v) { c.d_k = v; });
    const int seq = nearest_valid(base, 1, [](train::Config& c, int v) { c.seq = v; });
    EXPECT_EQ(dk, train::Limits::max_d_k);
    EXPECT_EQ(r.state.train.d_k, dk);
    EXPECT_EQ(r.state.train.seq, seq);
    expect_note(r, "dk", "9999", std::to_string(dk));
    expect_note(r, "seq", "1", std::to_string(seq));
    // The note quotes validate()'s sentence about the value given.
    train::Config wrong = base;
    wrong.seq = 1;
    EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(),
                            [&](const std::string& n) { return n.find(train::validate(wrong)) != n.npos; }));
  }
  {
    // sort needs vocab ≥ seq: at the default vocab, seq stops where the vocabulary does.
    const auto r = parse("view=train&task=sort&seq=32");
    const train::Config base = train::defaults(train::Task::sort);
    const int seq = nearest_valid(base, 32, [](train::Config& c, int v) { c.seq = v; });
    EXPECT_LT(seq, 32);
    EXPECT_EQ(r.state.train.seq, seq);
    expect_note(r, "seq", "32", std::to_string(seq));
  }
}

TEST(Clamp, RealSettingsOutOfRangeAreStillIgnored) {
  // init must be above 0: there is no nearest value, even though "-1" and "1" look whole.
  const auto r = parse("view=train&init=-1&lr=5");
  EXPECT_EQ(r.state.train, train::defaults(train::Task::reverse));
  ASSERT_EQ(r.notes.size(), 2u);
  for (const std::string& note : r.notes) EXPECT_EQ(note.rfind("ignored ", 0), 0u) << note;
}

TEST(Clamp, TextThatIsNotANumberIsStillIgnored) {
  const auto r = parse("view=tiling&tile=lots&n=2.5");
  EXPECT_EQ(r.state.tile, lab::State{}.tile);
  ASSERT_EQ(r.notes.size(), 2u);
  for (const std::string& note : r.notes) EXPECT_EQ(note.rfind("ignored ", 0), 0u) << note;
}

TEST(Clamp, TheClampedStateIsAValidLink) {
  for (const char* text : {"view=tiling&n=24&tile=999", "view=heads&heads=99&kvheads=3", "view=scaling&dk=100000",
                           "view=gradients&mult=1e9", "view=train&dk=9999&seq=1"}) {
    SCOPED_TRACE(text);
    const auto r = parse(text);
    const auto again = lab::parse_fragment(lab::to_fragment(r.state), lab::presets().front().state);
    EXPECT_TRUE(again.notes.empty()) << again.notes.front();
    EXPECT_EQ(again.state, r.state);
  }
}

}  // namespace
