// The training lab's tasks, determinism, learning, the compare facts the view shows, and the
// training request's errors. Every expectation is computed here from the task's definition
// or from a run, never copied from an earlier output.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "train_json.h"
#include "trainer.h"

namespace {

train::Batch batch_of(train::Task task, int seq, int vocab, int size = 50) {
  train::Config c = train::defaults(task);
  c.seq = seq;
  c.vocab = vocab;
  std::mt19937 rng(5);
  return train::make_batch(c, size, rng);
}

TEST(TrainTasks, ReverseScoresEveryPositionWithItsMirror) {
  const train::Batch b = batch_of(train::Task::reverse, 7, 5);
  for (int s = 0; s < b.size; ++s)
    for (int i = 0; i < b.seq; ++i) EXPECT_EQ(b.targets[s * b.seq + i], b.tokens[s * b.seq + b.seq - 1 - i]);
}

TEST(TrainTasks, MaxScoresEveryPositionWithTheLargestToken) {
  const train::Batch b = batch_of(train::Task::max, 9, 12);
  for (int s = 0; s < b.size; ++s) {
    const auto first = b.tokens.begin() + s * b.seq;
    const int top = *std::max_element(first, first + b.seq);
    for (int i = 0; i < b.seq; ++i) EXPECT_EQ(b.targets[s * b.seq + i], top);
  }
}

TEST(TrainTasks, SortPointsEachTokenToItsSuccessorInSortedOrder) {
  const train::Batch b = batch_of(train::Task::sort, 8, 10);
  for (int s = 0; s < b.size; ++s) {
    const std::set<int> present(b.tokens.begin() + s * b.seq, b.tokens.begin() + (s + 1) * b.seq);
    ASSERT_EQ(int(present.size()), b.seq) << "sort draws distinct tokens";
    for (int i = 0; i < b.seq; ++i) {
      const int x = b.tokens[s * b.seq + i];
      const auto next = present.upper_bound(x);
      EXPECT_EQ(b.targets[s * b.seq + i], next == present.end() ? x : *next);
    }
  }
}

TEST(TrainTasks, InductionRepeatsABlockOfVaryingLengthAndScoresTheRepeat) {
  const int seq = 16;
  const train::Batch b = batch_of(train::Task::induction, seq, 16, 200);
  std::set<int> lengths;
  for (int s = 0; s < b.size; ++s) {
    const int* x = &b.tokens[s * seq];
    const int* y = &b.targets[s * seq];
    // The block length L is the period of the sequence's tail.
    int block = 0;
    for (int L = 1; L <= seq / 2 && !block; ++L)
      if (std::equal(x + seq - L, x + seq, x + seq - 2 * L)) block = L;
    ASSERT_GT(block, 0);
    lengths.insert(block);
    // Everything before the repeat is distinct, so each repeated token has one earlier match.
    EXPECT_EQ(int(std::set<int>(x, x + seq - block).size()), seq - block);
    for (int t = 0; t < seq; ++t) {
      const bool scored = t >= seq - block && t < seq - 1;
      EXPECT_EQ(y[t], scored ? x[t + 1] : -1) << "sequence " << s << " position " << t;
    }
  }
  EXPECT_GE(lengths.size(), 3u) << "the block length must vary, or position alone would solve the task";
}

// Each row of the table of tasks holds at its own minimum: every sequence length the row
// allows, at the smallest vocabulary it allows there, is a valid configuration whose data stays
// inside the vocabulary and scores something; one position or one token fewer is refused.
TEST(TrainTasks, EveryTaskMakesItsDataAtItsOwnMinimum) {
  for (const train::TaskSpec& task : train::tasks()) {
    SCOPED_TRACE(task.name);
    for (int seq = task.min_seq; seq <= train::Limits::max_seq; ++seq) {
      const int vocab = std::max(2, train::min_vocab(task.task, seq));
      train::Config c = train::defaults(task.task);
      c.seq = seq;
      c.vocab = vocab;
      ASSERT_EQ(train::validate(c), "") << "seq " << seq << " vocab " << vocab;
      const train::Batch b = batch_of(task.task, seq, vocab);
      EXPECT_TRUE(std::all_of(b.tokens.begin(), b.tokens.end(), [&](int x) { return x >= 0 && x < vocab; }));
      EXPECT_TRUE(std::all_of(b.targets.begin(), b.targets.end(), [&](int y) { return y >= -1 && y < vocab; }));
      EXPECT_TRUE(std::any_of(b.targets.begin(), b.targets.end(), [](int y) { return y >= 0; })) << "seq " << seq;
      if (vocab > 2) {
        --c.vocab;
        EXPECT_EQ(train::validate(c).rfind("vocab: ", 0), 0u) << "seq " << seq << " vocab " << c.vocab;
      }
    }
    train::Config shorter = train::defaults(task.task);
    shorter.seq = task.min_seq - 1;
    EXPECT_EQ(train::validate(shorter), "seq: expected a whole number from " + std::to_string(task.min_seq) + " to " +
                                            std::to_string(train::Limits::max_seq));
  }
}

// A task's name is how links and requests name it: one name per task, read back as that task.
TEST(TrainTasks, EachNameReadsBackAsItsTask) {
  std::set<std::string> names;
  for (const train::TaskSpec& task : train::tasks()) {
    names.insert(task.name);
    train::Task read = train::Task(-1);  // no task, until the name is read
    ASSERT_TRUE(train::parse_task(task.name, read)) << task.name;
    EXPECT_EQ(read, task.task) << task.name;
    EXPECT_STREQ(train::task_name(task.task), task.name);
  }
  EXPECT_EQ(names.size(), train::tasks().size());
  train::Task unknown;
  EXPECT_FALSE(train::parse_task("copy", unknown));
}

TEST(TrainRun, TheSameConfigurationGivesTheSameRun) {
  train::Config c = train::defaults(train::Task::induction);
  train::Run a(c), b(c);
  for (int i = 0; i < 15; ++i) a.step(), b.step();
  EXPECT_EQ(a.history().loss, b.history().loss);
  EXPECT_EQ(a.history().accuracy, b.history().accuracy);
  EXPECT_EQ(a.history().entropy, b.history().entropy);
  c.seed = 2;
  train::Run other(c);
  for (int i = 0; i < 15; ++i) other.step();
  EXPECT_NE(a.history().loss, other.history().loss);
}

TEST(TrainRun, HistoryHasOneEntryPerStepAndMapsAreDistributions) {
  train::Config c = train::defaults(train::Task::induction);
  train::Run run(c);
  for (int i = 0; i < 3; ++i) run.step();
  const train::History& h = run.history();
  EXPECT_EQ(h.loss.size(), 3u);
  EXPECT_EQ(h.accuracy.size(), 3u);
  EXPECT_EQ(h.grad_norm_qk.size(), 3u);
  ASSERT_EQ(h.entropy.size(), 3u);
  EXPECT_EQ(int(h.entropy[0].size()), c.layers * c.heads);
  const train::Maps& m = run.maps();
  ASSERT_EQ(int(m.weights.size()), c.layers * c.heads);
  for (const train::Matrix& w : m.weights) {
    ASSERT_EQ(w.rows(), c.seq);
    for (int i = 0; i < c.seq; ++i) {
      EXPECT_NEAR(w.row(i).sum(), 1.0f, 1e-5f);
      for (int j = i + 1; j < c.seq; ++j) EXPECT_EQ(w(i, j), 0.0f) << "causal: no weight on later keys";
    }
  }
  // Uniform attention over n keys has entropy log n; causal rows see fewer keys.
  for (double e : h.entropy[0]) {
    EXPECT_GE(e, 0.0);
    EXPECT_LE(e, std::log(double(c.seq)));
  }
}

// Each task's default configuration learns it (held-out accuracy ≥ 95%) within 300 steps.
class TrainLearns : public ::testing::TestWithParam<train::TaskSpec> {};

TEST_P(TrainLearns, WithinAFewHundredSteps) {
  train::Run run(train::defaults(GetParam().task));
  for (int i = 0; i < 300; ++i) run.step();
  const train::History& h = run.history();
  EXPECT_GT(h.steps_to_accuracy(0.95), 0) << "final held-out accuracy " << h.accuracy.back();
  EXPECT_LT(h.loss.back(), 0.25 * h.loss.front());
}

INSTANTIATE_TEST_SUITE_P(EveryTask, TrainLearns, ::testing::ValuesIn(train::tasks()),
                         [](const auto& info) { return std::string(info.param.name); });

// The compare view's facts: with unit-variance queries and keys at d_k = 64, no scaling starts
// near one-hot and learns several times slower; a tiny initialisation removes the gap.
int steps_to_95(train::Config c, attn::ScaleMode scale, double* first_entropy = nullptr) {
  c.scale = scale;
  train::Run run(c);
  for (int i = 0; i < 600 && run.history().steps_to_accuracy(0.95) < 0; ++i) run.step();
  if (first_entropy) *first_entropy = run.history().entropy.front()[0];
  const int n = run.history().steps_to_accuracy(0.95);
  return n < 0 ? 1000 : n;
}

TEST(TrainCompare, UnscaledStartsNearOneHotAndLearnsSlower) {
  train::Config c = train::defaults(train::Task::reverse);
  c.d_model = c.d_k = 64;
  c.seq = 16;
  double scaled_entropy = 0, unscaled_entropy = 0;
  const int scaled = steps_to_95(c, attn::ScaleMode::inv_sqrt_dk, &scaled_entropy);
  const int unscaled = steps_to_95(c, attn::ScaleMode::none, &unscaled_entropy);
  EXPECT_LT(unscaled_entropy, 0.2 * std::log(16.0)) << "near one-hot";
  EXPECT_GT(scaled_entropy, 2 * unscaled_entropy);
  EXPECT_GE(unscaled, 2 * scaled) << "scaled " << scaled << " steps, unscaled " << unscaled;
}

TEST(TrainCompare, ATinyInitialisationClosesTheGap) {
  train::Config c = train::defaults(train::Task::reverse);
  c.d_model = c.d_k = 64;
  c.seq = 16;
  c.init_std = 0.02f;
  const int scaled = steps_to_95(c, attn::ScaleMode::inv_sqrt_dk);
  const int unscaled = steps_to_95(c, attn::ScaleMode::none);
  EXPECT_LE(unscaled, scaled) << "scaled " << scaled << " steps, unscaled " << unscaled;
}

// [SECTION] the training request

std::string error_of(const std::string& request) {
  bool ok = true;
  const nlohmann::json r = nlohmann::json::parse(train::train_json(request, &ok));
  EXPECT_FALSE(ok) << request;
  return r.value("error", "");
}

TEST(TrainRequest, BadFieldsGetOneSentenceNamingThem) {
  EXPECT_EQ(error_of(R"({"layers": 3})"), "layers: expected a whole number from 1 to 2");
  EXPECT_EQ(error_of(R"({"heads": 0})"), "heads: expected a whole number from 1 to 4");
  EXPECT_EQ(error_of(R"({"task": "copy"})"), "task: expected reverse, induction, sort or max");
  EXPECT_EQ(error_of(R"({"lr": -1})"), "lr: expected a number above 0, at most 1");
  EXPECT_EQ(error_of(R"({"seq": 40})"), "seq: expected a whole number from 2 to 32");
  EXPECT_EQ(error_of(R"({"scale": "sqrt"})"), "scale: expected inv_sqrt_dk, none or inv_dk");
  EXPECT_EQ(error_of(R"({"steps": 1e9})"), "steps: expected a whole number from 0 to 100000");
  EXPECT_EQ(error_of(R"({"d_k": 2.5})"), "d_k: expected a whole number, got 2.5");
  EXPECT_EQ(error_of(R"({"causal": 1})"), "causal: expected true or false, got number");
  EXPECT_EQ(error_of(R"({"task": "sort", "seq": 12, "vocab": 8})"),
            "vocab: the sort task needs at least 12 distinct tokens at seq 12");
  EXPECT_EQ(error_of(R"({"dropout": 0.1})"), "request: unknown field \"dropout\"");
  EXPECT_EQ(error_of(R"({"task": )"), "request: invalid JSON at byte 10");
  EXPECT_EQ(error_of("[1]"), "request: expected a JSON object");
}

TEST(TrainRequest, TheTaskSetsTheDefaultsAndOtherFieldsOverrideThem) {
  const train::Request r = train::parse_request(R"({"lr": 0.02, "task": "induction"})");
  train::Config expected = train::defaults(train::Task::induction);
  expected.lr = 0.02f;
  EXPECT_EQ(r.config, expected);
  EXPECT_EQ(r.steps, 300);
}

TEST(TrainRequest, ResponseHoldsOneEntryPerStepAndTheStepsToEachLevel) {
  bool ok = false;
  const nlohmann::json r = nlohmann::json::parse(train::train_json(R"({"steps": 120})", &ok));
  ASSERT_TRUE(ok) << r.dump();
  ASSERT_EQ(r["accuracy"].size(), 120u);
  EXPECT_EQ(r["loss"].size(), 120u);
  EXPECT_EQ(r["grad_norm_qk"].size(), 120u);
  EXPECT_EQ(r["entropy"].size(), 120u);
  for (const char* level : {"0.9", "0.95"}) {
    const double l = std::stod(level);
    int first = -1;
    for (std::size_t i = 0; i < r["accuracy"].size() && first < 0; ++i)
      if (r["accuracy"][i].get<double>() >= l) first = int(i) + 1;
    if (first < 0) EXPECT_TRUE(r["steps_to_accuracy"][level].is_null());
    else EXPECT_EQ(r["steps_to_accuracy"][level], first);
  }
}

}  // namespace
