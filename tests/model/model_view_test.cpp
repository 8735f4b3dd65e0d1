// view=model's numbers (src/model/model_view.h) on the shipped weights: what a head "matters"
// against a forward pass with that head's rows of W_O zeroed (another computation), the page
// API's JSON shape, the text past the context, the heads a link names that the model has not,
// and a missing or truncated weight file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "load.h"
#include "model_view.h"
#include "read_file.h"
#include "lab_file.h"

namespace {

const std::string& weights() {
  static const std::string bytes = read_file(ATTN_MODEL_DIR "/tiny-lm.bin");
  return bytes;
}
const std::string& report() {
  static const std::string text = read_file(ATTN_MODEL_DIR "/report.json");
  return text;
}

lab::State model_state(const std::string& text, std::vector<std::pair<int, int>> ablate = {}) {
  lab::State s;
  s.view = lab::View::model;
  s.text = text;
  s.ablate = std::move(ablate);
  return s;
}

lab::ModelView delivered(const lab::State& s) {
  lab::ModelView mv;
  const std::optional<lab::WeightSource> wanted = mv.wanted(s);
  EXPECT_TRUE(wanted && wanted->weights == "model/tiny-lm.bin" && wanted->report == "model/report.json");
  mv.loading(wanted->weights);
  EXPECT_FALSE(mv.wanted(s));  // asked once
  mv.deliver(wanted->weights, weights(), report(), "", s);
  mv.finish();
  return mv;
}

// The mean loss with `off` heads' rows of W_O set to zero: no head mask at all.
double zeroed_loss(lm::LanguageModel m, const std::vector<int>& tokens, const std::vector<std::pair<int, int>>& off) {
  for (const auto& [layer, head] : off)
    m.params.layers[std::size_t(layer)].wo.middleRows(head * m.config.d_k, m.config.d_k).setZero();
  return lm::analyse(m, tokens).mean_loss();
}

TEST(ModelView, HowMuchEachHeadMattersIsTheLossWithItsOutputZeroed) {
  const std::string text = "My sister planted tomatoes and basil in the garden.";
  for (const std::vector<std::pair<int, int>>& ablate : {std::vector<std::pair<int, int>>{}, {{1, 2}}}) {
    const lab::ModelView mv = delivered(model_state(text, ablate));
    ASSERT_EQ(mv.status(), lab::ModelView::Status::ready) << mv.error();
    const lm::LanguageModel& m = *mv.model();
    const std::vector<int> tokens = m.vocab.encode(text);
    const double as_set = zeroed_loss(m, tokens, ablate);
    EXPECT_NEAR(mv.result().analysis.mean_loss(), as_set, 1e-5);
    ASSERT_EQ(int(mv.result().matters.size()), m.head_count());
    for (int layer = 0; layer < m.config.layers; ++layer)
      for (int head = 0; head < m.config.heads; ++head) {
        std::vector<std::pair<int, int>> flipped = ablate;
        const auto it = std::find(flipped.begin(), flipped.end(), std::pair{layer, head});
        const bool was_off = it != flipped.end();
        if (was_off) flipped.erase(it);
        else flipped.emplace_back(layer, head);
        const double other = zeroed_loss(m, tokens, flipped);
        const double expected = was_off ? as_set - other : other - as_set;
        EXPECT_NEAR(mv.result().matters[std::size_t(layer * m.config.heads + head)], expected, 1e-5)
            << layer << "." << head;
      }
  }
}

TEST(ModelView, TheJsonHasTheDocumentedShape) {
  const std::string text = "abc abc";
  lab::ModelView mv = delivered(model_state(text, {{0, 1}}));
  const lm::LanguageModel& m = *mv.model();
  const auto j = nlohmann::json::parse(mv.json());
  std::string joined;
  for (const auto& t : j.at("tokens")) joined += t.get<std::string>();
  EXPECT_EQ(joined, text);
  const int n = 7;
  ASSERT_EQ(int(j.at("maps").size()), m.config.layers);
  ASSERT_EQ(int(j.at("maps")[0].size()), m.config.heads);
  ASSERT_EQ(int(j.at("maps")[1][2].size()), n);
  EXPECT_EQ(int(j.at("maps")[1][2][3].size()), n);
  // Each row a causal softmax: sums to 1, nothing after the query.
  double sum = 0;
  for (int k = 0; k < n; ++k) sum += j.at("maps")[1][2][3][k].get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-5);
  EXPECT_EQ(j.at("maps")[1][2][3][4].get<double>(), 0.0);
  ASSERT_EQ(int(j.at("loss").size()), n);
  EXPECT_TRUE(j.at("loss")[n - 1].is_null());  // nothing after the last character to predict
  // The loss at i is −log of the probability the prediction gave the next character.
  const auto& probs = mv.result().analysis.probs;
  const std::vector<int> tokens = m.vocab.encode(text);
  for (int i = 0; i + 1 < n; ++i)
    EXPECT_NEAR(j.at("loss")[i].get<double>(), -std::log(double(probs(i, tokens[std::size_t(i + 1)]))), 1e-4);
  // Predictions: the most likely first, each the probability of its token.
  const auto& first = j.at("predictions")[2];
  ASSERT_EQ(first.size(), 5u);
  for (std::size_t k = 1; k < first.size(); ++k) EXPECT_GE(first[k - 1].at("p").get<double>(), first[k].at("p").get<double>());
  EXPECT_NEAR(first[0].at("p").get<double>(), double(probs.row(2).maxCoeff()), 1e-6);
  EXPECT_EQ(j.at("ablate"), nlohmann::json::parse("[[0, 1]]"));
  ASSERT_EQ(int(j.at("scores").size()), m.head_count());
  EXPECT_EQ(j.at("scores")[6].at("layer"), 1);
  EXPECT_EQ(j.at("scores")[6].at("head"), 2);
  // The report's numbers, as shipped.
  const auto r = nlohmann::json::parse(report());
  EXPECT_EQ(j.at("scores")[6].at("label"), r.at("heads")[6].at("label"));
  EXPECT_EQ(j.at("scores")[6].at("induction"), r.at("heads")[6].at("induction_random"));
  // "abc" + " " + "abc": a text typed twice, period 4; each copy's mean loss over the same
  // characters ("bc" of each: targets 1, 2 and 5, 6), from the losses above.
  EXPECT_EQ(j.at("period"), 4);
  EXPECT_NEAR(j.at("copy_loss").at("first").get<double>(), (j.at("loss")[0].get<double>() + j.at("loss")[1].get<double>()) / 2, 1e-9);
  EXPECT_NEAR(j.at("copy_loss").at("second").get<double>(), (j.at("loss")[4].get<double>() + j.at("loss")[5].get<double>()) / 2, 1e-9);
}

// "Open in the walkthrough": the state it opens holds the head's own Q and K, whose causal
// softmax(Q Kᵀ / √d_k), computed here in float64, is the head's map in the model (a layer-1
// head, with a layer-0 head switched off before it).
TEST(ModelView, AHeadInTheWalkthroughHasItsOwnMap) {
  const std::string text = "A small dog chased the red ball.";
  lab::ModelView mv = delivered(model_state(text, {{0, 1}}));
  const int head = mv.model()->config.heads + 2;  // 1.2
  const lab::ModelView::Request r = mv.walkthrough_request(head);
  const lab::Loaded loaded = lab::load_request(r.request, r.options, model_state(text));
  ASSERT_EQ(loaded.error, "");
  const lab::State& s = loaded.state;
  EXPECT_EQ(s.view, lab::View::walkthrough);
  EXPECT_EQ(s.causal, attn::Causal::top_left);
  EXPECT_EQ(s.query_tokens, mv.result().tokens);
  const int n = s.nq, d = s.dk;
  const attn::Matrix& expected = mv.result().analysis.maps[std::size_t(head)];
  ASSERT_EQ(n, int(expected.rows()));
  for (int i = 0; i < n; ++i) {
    std::vector<double> e(std::size_t(i + 1));
    double top = -1e300, sum = 0;
    for (int j = 0; j <= i; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += double(s.q[std::size_t(i * d + c)]) * double(s.k[std::size_t(j * d + c)]);
      e[std::size_t(j)] = dot / std::sqrt(double(d));
      top = std::max(top, e[std::size_t(j)]);
    }
    for (double& x : e) sum += (x = std::exp(x - top));
    for (int j = 0; j <= i; ++j) EXPECT_NEAR(e[std::size_t(j)] / sum, expected(i, j), 2e-5) << i << "," << j;
  }
  // The ablation before it changes what the head reads.
  EXPECT_NE(delivered(model_state(text)).walkthrough_request(head).request, r.request);
}

TEST(ModelView, ATextPastTheContextIsReadUpToIt) {
  const std::string text(300, 'a');
  const lab::ModelView mv = delivered(model_state(text));
  EXPECT_EQ(mv.result().characters, 300);
  EXPECT_EQ(int(mv.result().tokens.size()), mv.model()->context());
}

TEST(ModelView, UnknownCharactersAndHeadsAreSaid) {
  const lab::ModelView mv = delivered(model_state("hi 😀\x01", {{0, 0}, {5, 1}, {1, 9}}));
  EXPECT_EQ(mv.result().unknown, 2);
  EXPECT_EQ(mv.result().tokens[3], "\xEF\xBF\xBD");
  EXPECT_EQ(mv.result().ablate, (std::vector<std::pair<int, int>>{{0, 0}}));
  EXPECT_NE(mv.ablate_error().find("ablate=5.1,1.9"), std::string::npos) << mv.ablate_error();
}

// head= opens a head the model has; one it has not is said, naming the key and the value, and
// experiment() gives the open head (or null) beside the unknown one.
TEST(ModelView, TheOpenHeadIsTheStatesAndAnUnknownOneIsSaid) {
  lab::State s = model_state("abc");
  s.open_head = std::pair{1, 3};
  lab::ModelView mv = delivered(s);
  EXPECT_EQ(mv.open_head(), mv.model()->config.heads + 3);
  EXPECT_EQ(mv.open_head_error(), "");
  EXPECT_EQ(nlohmann::json::parse(mv.json()).at("head"), nlohmann::json::parse("[1, 3]"));
  s.open_head = std::pair{4, 0};
  mv.update(s);
  EXPECT_EQ(mv.open_head(), -1);
  EXPECT_NE(mv.open_head_error().find("head=4.0 names no head of the model"), std::string::npos) << mv.open_head_error();
  const auto j = nlohmann::json::parse(mv.json());
  EXPECT_TRUE(j.at("head").is_null());
  EXPECT_EQ(j.at("unknown_head"), nlohmann::json::parse("[4, 0]"));
  s.open_head.reset();
  mv.update(s);
  EXPECT_TRUE(nlohmann::json::parse(mv.json()).at("head").is_null());
  EXPECT_EQ(nlohmann::json::parse(mv.json()).count("unknown_head"), 0u);
}

TEST(ModelView, AMissingOrTruncatedFileIsSaidAndNothingIsComputed) {
  const lab::State s = model_state("abc");
  lab::ModelView missing;
  missing.deliver("model/tiny-lm.bin", "", "", "model/tiny-lm.bin: 404 Not Found", s);
  EXPECT_EQ(missing.status(), lab::ModelView::Status::failed);
  EXPECT_EQ(nlohmann::json::parse(missing.json()).at("error"), "model/tiny-lm.bin: 404 Not Found");
  lab::ModelView truncated;
  truncated.deliver("model/tiny-lm.bin", weights().substr(0, weights().size() / 2), report(), "", s);
  EXPECT_EQ(truncated.status(), lab::ModelView::Status::failed);
  EXPECT_NE(truncated.error().find("model/tiny-lm.bin"), std::string::npos) << truncated.error();
  EXPECT_TRUE(truncated.result().tokens.empty());
  // A report that does not parse leaves the model working, its heads unlabelled.
  lab::ModelView unlabelled;
  unlabelled.deliver("model/tiny-lm.bin", weights(), "{", "", s);
  EXPECT_EQ(unlabelled.status(), lab::ModelView::Status::ready);
  EXPECT_TRUE(unlabelled.report().empty());
  EXPECT_NE(unlabelled.report_error().find("report.json"), std::string::npos);
}

}  // namespace

namespace {

// A checkpoint's weights: the file under the model's folder that the report names.
std::string site_file(const std::string& name) {
  return read_file(std::string(ATTN_MODEL_DIR) + "/" + name.substr(std::string("model/").size()));
}

}  // namespace

TEST(ModelFiles, TheCheckpointsAreWantedOnlyOnceTheStateNamesOneAndThenShowTheirOwnWeightsAndScores) {
  lab::State s = model_state("abc abc");
  lab::ModelView mv = delivered(s);
  ASSERT_NE(mv.base(), nullptr);
  const std::vector<lab::Checkpoint>& kept = mv.base()->checkpoints;
  ASSERT_GE(kept.size(), 3u);
  EXPECT_EQ(kept.back().weights, "model/tiny-lm.bin");  // the last step is the model itself
  EXPECT_FALSE(mv.wanted(s));                           // no checkpoint named: none fetched
  const lab::Checkpoint& early = kept.front();
  s.checkpoint = early.step;
  mv.update(s);
  // Every kept file is wanted at once (the slider then moves without waiting), each once.
  std::vector<std::string> asked;
  while (const std::optional<lab::WeightSource> w = mv.wanted(s)) {
    EXPECT_EQ(w->report, "");
    asked.push_back(w->weights);
    mv.loading(w->weights);
  }
  EXPECT_EQ(asked.size(), kept.size() - 1);
  EXPECT_TRUE(mv.checkpoint_loading());
  // Awaited as the model is: no other weights' numbers stand in for the step's meanwhile.
  EXPECT_TRUE(mv.awaited(s));
  EXPECT_EQ(mv.status(), lab::ModelView::Status::loading);
  EXPECT_EQ(mv.model(), nullptr);
  EXPECT_EQ(nlohmann::json::parse(mv.json()).at("status"), "loading");
  mv.deliver(early.weights, site_file(early.weights), "", "", s);
  mv.finish();
  EXPECT_FALSE(mv.checkpoint_loading());
  ASSERT_NE(mv.model(), mv.base()->model.get());
  // Its own weights: the map of the checkpoint's file, not the model's.
  const lm::LanguageModel at_step = lm::parse(site_file(early.weights), early.weights);
  const std::vector<int> tokens = at_step.vocab.encode(s.text);
  EXPECT_NEAR(mv.result().analysis.mean_loss(), lm::analyse(at_step, tokens).mean_loss(), 1e-6);
  EXPECT_GT(std::abs(mv.result().analysis.mean_loss() - lm::analyse(*mv.base()->model, tokens).mean_loss()), 1e-3);
  // Its own scores, as the report gives them at that step.
  const nlohmann::json r = nlohmann::json::parse(report());
  const nlohmann::json& listed = r.at("training").at("checkpoints").at(0);
  ASSERT_EQ(listed.at("step"), early.step);
  EXPECT_EQ(mv.report()[4].induction_random, listed.at("heads").at(4).at("induction_random").get<double>());
  const nlohmann::json j = nlohmann::json::parse(mv.json());
  EXPECT_EQ(j.at("weights").at("file"), early.weights);
  EXPECT_EQ(j.at("weights").at("checkpoint").at("step"), early.step);
  EXPECT_DOUBLE_EQ(j.at("weights").at("checkpoint").at("copy_ratio_sentences").get<double>(),
                   listed.at("copying").at("sentences").at("ratio").get<double>());
}

TEST(ModelFiles, AStepNotKeptOrAFileMissingIsSaidAndTheModelShown) {
  lab::State s = model_state("abc abc");
  lab::ModelView mv = delivered(s);
  s.checkpoint = 1234;
  mv.update(s);
  EXPECT_NE(mv.checkpoint_error().find("checkpoint=1234"), std::string::npos) << mv.checkpoint_error();
  EXPECT_NE(mv.checkpoint_error().find(std::to_string(mv.base()->checkpoints.front().step)), std::string::npos);
  EXPECT_EQ(mv.model(), mv.base()->model.get());
  s.checkpoint = mv.base()->checkpoints.front().step;
  mv.update(s);
  mv.deliver(mv.base()->checkpoints.front().weights, "", "", "model/checkpoints/x.bin: 404 Not Found", s);
  EXPECT_EQ(mv.checkpoint_error(), "model/checkpoints/x.bin: 404 Not Found");
  EXPECT_EQ(mv.status(), lab::ModelView::Status::ready);
  EXPECT_EQ(mv.model(), mv.base()->model.get());
}

TEST(ModelFiles, TheTwinIsItsOwnFileWithItsOwnReportAndNoCheckpoints) {
  lab::State s = model_state("abc abc");
  lab::ModelView mv = delivered(s);
  s.model = lab::LanguageModelChoice::one_layer;
  mv.update(s);
  EXPECT_EQ(mv.status(), lab::ModelView::Status::loading);
  const std::optional<lab::WeightSource> w = mv.wanted(s);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->weights, "model/one-layer/tiny-lm.bin");
  EXPECT_EQ(w->report, "model/one-layer/report.json");
  mv.loading(w->weights);
  mv.deliver(w->weights, site_file(w->weights), site_file(w->report), "", s);
  ASSERT_EQ(mv.status(), lab::ModelView::Status::ready) << mv.error();
  EXPECT_EQ(mv.model()->config.layers, 1);
  EXPECT_EQ(mv.report().size(), std::size_t(mv.model()->config.heads));
  EXPECT_TRUE(mv.base()->checkpoints.empty());
  s.checkpoint = 500;
  mv.update(s);
  EXPECT_NE(mv.checkpoint_error().find("kept no weights"), std::string::npos) << mv.checkpoint_error();
  EXPECT_FALSE(mv.wanted(s));
}

TEST(ModelFiles, CircuitsAreComputedOnlyForWeightsShownAndOnce) {
  // The checkpoints arrive together; only the one on the slider needs its circuits.
  lab::ModelFiles files;
  const lab::State s = model_state("abc");
  files.deliver("model/tiny-lm.bin", weights(), report(), "");
  const lab::Weights* w = files.model(s);
  ASSERT_TRUE(w && w->model);
  EXPECT_EQ(w->circuits, nullptr);
  const auto first = files.circuits(*w);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(files.circuits(*w), first);
}
