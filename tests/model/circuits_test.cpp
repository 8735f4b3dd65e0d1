// The circuits (src/lm/circuits.h) on random models of any shape, by what must hold whatever
// the weights: the attribution's parts add up to its value, a last-layer head's total effect is
// its direct part (nothing after it reads it), a switched-off head writes nothing, negating a
// head's W_O negates its copying score; and bad input, in lm::attribute and in view=model's keys
// and values (the float64 comparison of every number is tests/model/forward_test.py's).
#include <gtest/gtest.h>

#include <cstdint>

#include <nlohmann/json.hpp>

#include "circuits.h"
#include "model_view.h"
#include "read_file.h"

namespace {

lm::LanguageModel random_model(int layers, int heads) {
  const lm::Vocabulary vocab({"a", "b", "c", " ", "\xC3\xA1", "Z"});  // á
  train::Config c = lm::model_config(layers, heads, 8, 16, vocab.size(), 11);
  c.init_std = 1.0f;
  return lm::lab_model(vocab, c, train::init_params(c));
}

// The view's passes on `tokens`: as set, and each head switched the other way.
std::vector<lm::Matrix> flipped_logits(const lm::LanguageModel& m, const std::vector<int>& tokens,
                                       const train::HeadMask& off) {
  std::vector<lm::Matrix> out;
  for (int h = 0; h < m.head_count(); ++h) {
    train::HeadMask flipped = off;
    flipped[std::size_t(h)] = !flipped[std::size_t(h)];
    out.push_back(lm::analyse(m, tokens, flipped).logits);
  }
  return out;
}

TEST(Circuits, ReadableCharactersAreTheModelsInTheirOrder) {
  const lm::LanguageModel m = random_model(1, 1);
  EXPECT_EQ(lm::readable_tokens(m.vocab), m.vocab.encode("abc \xC3\xA1"));
}

TEST(Circuits, CompositionPairsEveryEarlierLayersHeadWithEveryLaterOne) {
  const lm::Circuits c = lm::circuits(random_model(3, 2));
  ASSERT_EQ(c.heads.size(), 6u);
  std::vector<std::pair<int, int>> pairs;
  for (const lm::Composition& k : c.composition) pairs.emplace_back(k.from, k.to);
  const std::vector<std::pair<int, int>> expected{{0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 2}, {1, 3}, {1, 4},
                                                  {1, 5}, {2, 4}, {2, 5}, {3, 4}, {3, 5}};
  EXPECT_EQ(pairs, expected);
  EXPECT_TRUE(lm::circuits(random_model(1, 3)).composition.empty());
  for (const lm::HeadCircuit& h : c.heads) {
    EXPECT_EQ(h.ov.rows(), Eigen::Index(c.readable.size()));
    EXPECT_EQ(h.positions.size(), 16u);
    EXPECT_GE(h.copying, -1.0);
    EXPECT_LE(h.copying, 1.0);
  }
}

TEST(Circuits, NegatingAHeadsOutputNegatesItsCopyingScore) {
  lm::LanguageModel m = random_model(1, 2);
  const double before = lm::circuits(m).heads[1].copying;
  m.params.layers[0].wo.middleRows(m.config.d_k, m.config.d_k) *= -1.0f;
  const lm::Circuits after = lm::circuits(m);
  EXPECT_NEAR(after.heads[1].copying, -before, 1e-9);
  EXPECT_NE(before, 0.0);
}

// The view's shortcut against the full pass it stands for, for every head of every layer, on
// and off.
TEST(Circuits, AFlippedPassFromTheSharedLayersIsTheFullPass) {
  const lm::LanguageModel m = random_model(3, 2);
  const std::vector<int> tokens = m.vocab.encode("abcab ab\xC3\xA1");
  for (const train::HeadMask& off : {lm::head_mask(m, {}), lm::head_mask(m, {{0, 1}, {2, 0}})}) {
    const lm::Analysis as_set = lm::analyse(m, tokens, off);
    for (int h = 0; h < m.head_count(); ++h) {
      train::HeadMask flipped = off;
      flipped[std::size_t(h)] = !flipped[std::size_t(h)];
      const lm::Analysis want = lm::analyse(m, tokens, flipped), got = lm::analyse_flipped(m, as_set, off, h);
      EXPECT_LT((got.logits - want.logits).cwiseAbs().maxCoeff(), 1e-4) << h;
      ASSERT_EQ(got.maps.size(), want.maps.size());
      for (std::size_t i = 0; i < want.maps.size(); ++i) EXPECT_LT((got.maps[i] - want.maps[i]).cwiseAbs().maxCoeff(), 1e-5);
      for (std::size_t i = 0; i < want.outputs.size(); ++i)
        EXPECT_LT((got.outputs[i] - want.outputs[i]).cwiseAbs().maxCoeff(), 1e-4) << h << " " << i;
      EXPECT_NEAR(got.mean_loss(), want.mean_loss(), 1e-5);
    }
  }
}

TEST(Attribution, PartsAddUpAndALastLayerHeadsTotalIsItsDirectPart) {
  const lm::LanguageModel m = random_model(3, 2);
  const std::vector<int> tokens = m.vocab.encode("abcab ab\xC3\xA1");
  for (const train::HeadMask& off : {lm::head_mask(m, {}), lm::head_mask(m, {{1, 0}, {2, 1}})}) {
    const lm::Analysis a = lm::analyse(m, tokens, off);
    const std::vector<lm::Matrix> flipped = flipped_logits(m, tokens, off);
    for (const int against : {-1, 3}) {
      const lm::Attribution r = lm::attribute(m, a, off, flipped, 5, 2, against);
      double sum = r.embedding;
      for (double d : r.direct) sum += d;
      EXPECT_NEAR(sum, r.value, 1e-4);
      for (int h = 4; h < 6; ++h)  // layer 2: nothing reads what it writes
        if (!off[std::size_t(h)]) EXPECT_NEAR(r.total[std::size_t(h)], r.direct[std::size_t(h)], 1e-4) << h;
      // Head 1.0: off in the second mask (it writes nothing), on in the first.
      if (off[2]) EXPECT_EQ(r.direct[2], 0.0);
      else EXPECT_NE(r.direct[2], 0.0);
    }
  }
}

TEST(Attribution, BadPositionsAndCharactersNameTheirField) {
  const lm::LanguageModel m = random_model(2, 1);
  const std::vector<int> tokens = m.vocab.encode("abc");
  const train::HeadMask off = lm::head_mask(m, {});
  const lm::Analysis a = lm::analyse(m, tokens, off);
  const std::vector<lm::Matrix> flipped = flipped_logits(m, tokens, off);
  const auto error = [&](int at, int target, int against) {
    try {
      lm::attribute(m, a, off, flipped, at, target, against);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(3, 1, -1).rfind("at:", 0), 0u) << error(3, 1, -1);
  EXPECT_EQ(error(-1, 1, -1).rfind("at:", 0), 0u);
  EXPECT_EQ(error(0, 99, -1).rfind("target:", 0), 0u);
  EXPECT_EQ(error(0, 1, 99).rfind("against:", 0), 0u);
  EXPECT_EQ(error(0, 1, 1).rfind("against:", 0), 0u);
  EXPECT_THROW(lm::attribute(m, a, off, {flipped.front()}, 0, 1, -1), std::invalid_argument);  // one of two
  // No passes at all: the direct parts alone (view=model's until its flipped passes have run).
  const lm::Attribution direct = lm::attribute(m, a, off, {}, 0, 1, -1);
  EXPECT_TRUE(direct.total.empty());
  EXPECT_EQ(direct.direct, lm::attribute(m, a, off, flipped, 0, 1, -1).direct);
}

// view=model's values that the link's form allows but the text or the model does not.
lab::ModelView view_of(const lab::State& s) {
  lab::ModelView mv;
  mv.deliver("model/tiny-lm.bin", read_file(ATTN_MODEL_DIR "/tiny-lm.bin"), "", "", s);
  mv.finish();
  return mv;
}
lab::State model_state(const std::string& text) {
  lab::State s;
  s.view = lab::View::model;
  s.text = text;
  return s;
}

TEST(ModelViewCircuits, ValuesTheTextOrTheModelCannotTakeAreSaidByName) {
  lab::State s = model_state("pan pan");
  s.at = 7;
  EXPECT_NE(view_of(s).result().attribution_error.find("at=7"), std::string::npos);
  s.at = 1;
  s.target = "\xE2\x82\xAC";  // €, not a character of the model
  EXPECT_NE(view_of(s).result().attribution_error.find("target="), std::string::npos);
  s.target = "a";
  s.against = "a";
  EXPECT_NE(view_of(s).result().attribution_error.find("against=a"), std::string::npos);
  s = model_state("pan y pan");
  s.edit.emplace(1, "x");
  EXPECT_NE(view_of(s).result().edit_error.find("edit="), std::string::npos);  // not typed twice
  s = model_state("pan pan");
  s.edit.emplace(3, "x");  // the space between the copies
  EXPECT_NE(view_of(s).result().edit_error.find("0 to 2"), std::string::npos);
  s.edit.emplace(1, "x");
  lab::ModelView mv = view_of(s);
  ASSERT_TRUE(mv.result().edit) << mv.result().edit_error;
  EXPECT_EQ(mv.result().edit->from, "a");
  EXPECT_FALSE(nlohmann::json::parse(mv.json())["edit"].is_null());
}

TEST(ModelViewCircuits, OneCharacterIsSplitOnTheModelsOwnChoice) {
  const lab::ModelView mv = view_of(model_state("q"));
  ASSERT_TRUE(mv.result().attribution) << mv.result().attribution_error;
  const lm::Attribution& a = *mv.result().attribution;
  EXPECT_EQ(a.position, 0);
  EXPECT_EQ(a.target, mv.top(0, 1).front().token);
  EXPECT_TRUE(view_of(model_state("")).result().attribution_error.empty());
}

// A keystroke's maps reach the screen before the passes with each head flipped (three quarters
// of its work) have run: until finish(), what needs them is absent, never stale.
TEST(ModelViewCircuits, TheFlippedPassesWaitForFinish) {
  lab::State s = model_state("the cat");
  lab::ModelView mv = view_of(s);
  const lm::Attribution before = *mv.result().attribution;
  s.text = "the cat sat";
  mv.update(s);
  ASSERT_TRUE(mv.pending());
  const lab::ModelView::Result& r = mv.result();
  EXPECT_EQ(int(r.analysis.maps.size()), mv.model()->head_count());
  EXPECT_TRUE(r.matters.empty());
  EXPECT_TRUE(r.flipped_logits.empty());
  ASSERT_TRUE(r.attribution);
  EXPECT_EQ(r.attribution->direct.size(), before.direct.size());
  EXPECT_TRUE(r.attribution->total.empty());
  const std::uint64_t version = mv.version();
  mv.finish();
  EXPECT_FALSE(mv.pending());
  EXPECT_EQ(mv.version(), version);  // no map changed: their textures are not painted again
  EXPECT_EQ(int(r.matters.size()), mv.model()->head_count());
  EXPECT_EQ(r.attribution->total.size(), before.direct.size());
  // experiment() never answers with the pending parts missing.
  s.text = "the cat";
  mv.update(s);
  ASSERT_TRUE(mv.pending());
  const auto j = nlohmann::json::parse(mv.json());
  EXPECT_FALSE(mv.pending());
  for (std::size_t h = 0; h < before.total.size(); ++h)
    EXPECT_DOUBLE_EQ(j["attribution"]["parts"][h + 1]["total"].get<double>(), before.total[h]);
}

TEST(ModelViewCircuits, MovingTheChosenCharacterRunsNoPass) {
  lab::State s = model_state("the cat");
  lab::ModelView mv = view_of(s);
  const float* logits = mv.result().flipped_logits.front().data();
  s.at = 2;
  s.against = "e";
  mv.update(s);
  EXPECT_EQ(mv.result().flipped_logits.front().data(), logits);  // the same passes, kept
  ASSERT_TRUE(mv.result().attribution);
  EXPECT_EQ(mv.result().attribution->position, 2);
}

TEST(ModelViewKeys, BadFormsAreIgnoredWithANoteNamingTheKey) {
  for (const char* link : {"at=x", "target=ab", "against=%C3", "edit=4", "edit=x:c", "edit=4:cd", "edit=-1:c",
                           "model=", "model=a%0Ab", "checkpoint=-250", "checkpoint=1.5k"}) {
    const auto r = lab::parse_fragment(std::string("view=model&") + link, lab::State());
    ASSERT_EQ(r.notes.size(), 1u) << link;
    EXPECT_NE(r.notes[0].find(std::string(link).substr(0, std::string(link).find('='))), std::string::npos) << r.notes[0];
  }
}

// model= names the lab's models, or else a model opened from its files, by its name; a link
// writes the name back, never the files.
TEST(ModelViewKeys, AModelOpenedFromItsFilesIsNamedInTheLink) {
  const auto r = lab::parse_fragment("view=model&model=tiny%20gpt", lab::State());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.state.model, lab::LanguageModelChoice::opened);
  EXPECT_EQ(r.state.model_name, "tiny gpt");
  EXPECT_NE(lab::to_fragment(r.state).find("model=tiny%20gpt"), std::string::npos) << lab::to_fragment(r.state);
  const auto lab_model = lab::parse_fragment("view=model&model=one-layer", lab::State());
  EXPECT_EQ(lab_model.state.model, lab::LanguageModelChoice::one_layer);
  EXPECT_EQ(lab_model.state.model_name, "");
  // Opened without its files, the view says why it has nothing to show.
  lab::ModelView mv;
  mv.update(r.state);
  EXPECT_EQ(mv.status(), lab::ModelView::Status::failed);
  EXPECT_NE(mv.error().find("a link cannot carry"), std::string::npos) << mv.error();
}

}  // namespace
