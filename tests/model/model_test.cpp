// The language model (src/lm): its weight file, its forward pass with heads switched off,
// its vocabulary, and the shipped weights against the shipped report.
#include <gtest/gtest.h>


#include <nlohmann/json.hpp>

#include "head_scores.h"
#include "measure.h"
#include "read_file.h"
#include "lab_file.h"

namespace lm {
namespace {

// A small model with random weights (two layers of two heads, so layer 1 reads layer 0).
LanguageModel random_model() {
  const Vocabulary vocab({"a", "b", "c", " ", "é"});
  train::Config c = model_config(2, 2, 8, 16, vocab.size(), 7);
  c.init_std = 1.0f;
  return lab_model(vocab, c, train::init_params(c));
}

template <class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning \"" << part << "\"";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Vocabulary, UnknownCharactersAndBadBytesReadAsTokenZero) {
  const Vocabulary v({"a", "b", "é"});
  EXPECT_EQ(v.encode("ab\xC3\xA9z"), (std::vector<int>{1, 2, 3, 0}));
  EXPECT_EQ(v.encode("a\xFF" "b"), (std::vector<int>{1, 0, 2}));       // not UTF-8
  EXPECT_EQ(v.encode("\xF0\x9F\x98\x80"), (std::vector<int>{0}));      // an emoji: one character
  EXPECT_EQ(v.text(0), Vocabulary::kUnknownText);
  EXPECT_EQ(v.text(3), "\xC3\xA9");
  EXPECT_THROW(Vocabulary({"a", "a"}), std::invalid_argument);
  EXPECT_THROW(Vocabulary({"ab"}), std::invalid_argument);
}

TEST(WeightFile, RoundTripsTheHalfPrecisionModel) {
  const LanguageModel m = random_model();
  const LanguageModel back = parse(serialise(m), "model");
  const LanguageModel half = rounded_to_half(m);
  const Architecture &a = back.config, &b = half.config;
  EXPECT_EQ(std::tie(a.layers, a.heads, a.d_model, a.d_k, a.context, a.vocab, a.d_mlp, a.score_scale),
            std::tie(b.layers, b.heads, b.d_model, b.d_k, b.context, b.vocab, b.d_mlp, b.score_scale));
  EXPECT_EQ(a.positions, Positions::queries_keys);
  EXPECT_EQ(back.vocab.characters()->entries(), m.vocab.characters()->entries());
  std::vector<std::pair<std::string, Matrix>> want;
  Weights::each(half.params, [&](const std::string& name, const auto& t) { want.emplace_back(name, t); });
  std::size_t i = 0;
  Weights::each(back.params, [&](const std::string& name, const auto& t) {
    ASSERT_LT(i, want.size());
    EXPECT_EQ(name, want[i].first);
    EXPECT_TRUE(Matrix(t) == want[i++].second) << name;
  });
  EXPECT_EQ(i, want.size());
}

TEST(WeightFile, RejectsMissingTruncatedAndCorruptFiles) {
  const std::string bytes = serialise(random_model());
  expect_error([] { load("/nonexistent/tiny-lm.bin"); }, "cannot open");
  expect_error([&] { parse(bytes.substr(0, bytes.size() - 10), "f"); }, "truncated");
  expect_error([&] { parse(bytes.substr(0, 20), "f"); }, "truncated");
  expect_error([&] { parse(bytes + "xx", "f"); }, "past its end");
  expect_error([&] { parse("PK" + bytes.substr(2), "f"); }, "not a model weight file");
  std::string flipped = bytes;
  flipped[flipped.size() - 40] ^= 0x10;  // a bit of the last tensor
  expect_error([&] { parse(flipped, "f"); }, "checksum");
  std::string header = bytes;
  header[14] = '#';  // inside the JSON header
  expect_error([&] { parse(header, "f"); }, "f: ");
}

// Switching a head off must equal a model whose W_O ignores that head's output: its d_k rows
// of W_O set to zero, a different computation reaching the same residual stream.
TEST(Forward, AblatingAHeadEqualsZeroingItsRowsOfTheOutputProjection) {
  const LanguageModel m = random_model();
  const std::vector<int> tokens = m.vocab.encode("abc abc ab");
  for (int layer = 0; layer < 2; ++layer)
    for (int head = 0; head < 2; ++head) {
      const Analysis ablated = analyse(m, tokens, head_mask(m, {{layer, head}}));
      LanguageModel zeroed = m;
      zeroed.params.layers[layer].wo.middleRows(head * m.config.d_k, m.config.d_k).setZero();
      const Analysis direct = analyse(zeroed, tokens);
      EXPECT_TRUE(ablated.logits.isApprox(direct.logits, 1e-6f)) << layer << "." << head;
      for (std::size_t i = 0; i < ablated.loss.size(); ++i) EXPECT_NEAR(ablated.loss[i], direct.loss[i], 1e-5);
      // And it changes something: the head mattered.
      EXPECT_FALSE(ablated.logits.isApprox(analyse(m, tokens).logits, 1e-4f)) << layer << "." << head;
    }
  EXPECT_THROW(head_mask(m, {{2, 0}}), std::invalid_argument);
}

// Causal: a prefix's maps and predictions are the full text's first rows.
TEST(Forward, APrefixSeesWhatTheFullTextSeesUpToItsEnd) {
  const LanguageModel m = random_model();
  const std::vector<int> tokens = m.vocab.encode("abcab cba");
  const Analysis full = analyse(m, tokens), prefix = analyse(m, {tokens.begin(), tokens.begin() + 5});
  EXPECT_TRUE(prefix.logits.isApprox(full.logits.topRows(5), 1e-5f));
  for (std::size_t h = 0; h < full.maps.size(); ++h)
    EXPECT_TRUE(prefix.maps[h].isApprox(full.maps[h].topLeftCorner(5, 5), 1e-5f));
  EXPECT_THROW(analyse(m, std::vector<int>(17, 1)), std::invalid_argument);
  EXPECT_THROW(analyse(m, {}), std::invalid_argument);
}

// The shipped weights reproduce the shipped report (the report was measured on the same
// half-precision weights). Tolerance: 1e-4 on scores, 1e-3 nats on losses, for differences in
// float rounding between builds (SIMD paths, compilers).
TEST(ShippedModel, ReproducesItsReport) {
  const LanguageModel m = load(ATTN_MODEL_DIR "/tiny-lm.bin");
  const nlohmann::json report = nlohmann::json::parse(read_file(ATTN_MODEL_DIR "/report.json"));
  Probes p;
  p.train = read_file(ATTN_MODEL_DATA_DIR "/corpus-train.txt");
  p.held_out = read_file(ATTN_MODEL_DATA_DIR "/corpus-heldout.txt");
  p.sentences = report.at("probes").at("sentences").get<std::vector<std::string>>();
  p.random = report.at("probes").at("random").get<std::vector<std::string>>();
  for (const auto& [language, texts] : report.at("probes").at("held_out_sentences").items())
    for (const std::string& text : texts.get<std::vector<std::string>>()) p.held_out_sentences.push_back({language, text});
  const nlohmann::json now = measure(m, p);
  EXPECT_EQ(now["windows"], report["windows"]);
  const nlohmann::json &held = now["held_out_sentences"], &shipped = report["held_out_sentences"];
  ASSERT_EQ(held["sentences"].size(), shipped["sentences"].size());
  for (std::size_t i = 0; i < held["sentences"].size(); ++i)
    for (const char* field : {"first", "second", "ablated_second", "induction"})
      EXPECT_NEAR(held["sentences"][i][field].get<double>(), shipped["sentences"][i][field].get<double>(), 1e-3) << i << field;
  // The shipped weights meet every held-out target (issue 43), as the report says and as
  // measured again here.
  for (const auto& [name, target] : shipped["targets"].items()) {
    EXPECT_TRUE(target["met"].get<bool>()) << name;
    EXPECT_EQ(held["targets"][name]["met"], target["met"]) << name;
  }
  EXPECT_NEAR(now["loss"]["train"].get<double>(), report["loss"]["train"].get<double>(), 1e-3);
  EXPECT_NEAR(now["loss"]["held_out"].get<double>(), report["loss"]["held_out"].get<double>(), 1e-3);
  for (const char* kind : {"sentences", "random"})
    for (const char* copy : {"first", "second"})
      EXPECT_NEAR(now["copying"][kind][copy].get<double>(), report["copying"][kind][copy].get<double>(), 1e-3) << kind << copy;
  ASSERT_EQ(now["heads"].size(), report["heads"].size());
  for (std::size_t h = 0; h < report["heads"].size(); ++h) {
    const auto &a = now["heads"][h], &b = report["heads"][h];
    for (const char* score : {"previous_token", "induction_sentences", "induction_random"})
      EXPECT_NEAR(a[score].get<double>(), b[score].get<double>(), 1e-4) << h << " " << score;
    for (const char* kind : {"sentences", "random"})
      EXPECT_NEAR(a["ablated_second_copy_loss"][kind].get<double>(), b["ablated_second_copy_loss"][kind].get<double>(), 1e-3);
    EXPECT_EQ(a["label"], b["label"]) << h;
  }
  EXPECT_EQ(report["model"]["vocabulary"].size(), std::size_t(m.vocab.size()));
}

}  // namespace
}  // namespace lm
