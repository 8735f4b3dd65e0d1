// A short training run from scratch (src/lm/trainer.h) on the project's corpus: it learns
// (the loss falls) and a seed gives the same weights every time. And its rows
// (src/lm/corpus_rows.h): the spans typed twice drawn from each part of the corpus evenly.
#include <gtest/gtest.h>

#include <algorithm>

#include "corpus_rows.h"
#include "read_file.h"
#include "trainer.h"
#include "lab_file.h"

namespace lm {
namespace {

std::string corpus() { return read_file(ATTN_MODEL_DATA_DIR "/corpus-train.txt"); }

TrainOptions small(std::uint32_t seed) {
  TrainOptions o;
  o.d_model = 16;
  o.heads = 2;
  o.context = 32;
  o.batch = 8;
  o.steps = 200;
  o.warmup = 20;
  o.threads = 2;
  o.seed = seed;
  return o;
}

TEST(Trainer, LearnsAndIsDeterministicForASeed) {
  const std::string text = corpus();
  const Vocabulary v = Vocabulary::from_corpus(text, " abcdefghijklmnopqrstuvwxyz", 5);
  std::vector<double> losses;
  const LanguageModel a = train_model(v, text, small(3), [&](int, double loss, const LanguageModel&) { losses.push_back(loss); });
  ASSERT_EQ(losses.size(), 200u);
  double first = 0, last = 0;
  for (int i = 0; i < 20; ++i) first += losses[i] / 20, last += losses[180 + i] / 20;
  EXPECT_LT(last, first - 1.0) << "the loss did not fall";
  EXPECT_EQ(serialise(a), serialise(train_model(v, text, small(3))));
  EXPECT_NE(serialise(a), serialise(train_model(v, text, small(4))));
}

// A corpus of two parts, 95 % token 1 and then 5 % token 2, every row a span typed twice: the
// share of rows holding two copies' worth of token 2 (a span from the small part, or a row's
// window or a span that reaches into it: about a tenth of the rows when spans come from
// anywhere).
double rows_copying_the_small_part(const std::vector<Part>& parts) {
  std::vector<int> corpus(19000, 1);
  corpus.resize(20000, 2);
  RowMix mix;
  mix.random_repeat = 0;
  mix.corpus_repeat = 1;
  mix.span_parts = parts;
  std::mt19937 rng(7);
  const train::Batch b = corpus_rows(corpus, {3}, 0, 128, 2000, mix, rng);
  int rows = 0;
  for (int r = 0; r < b.size; ++r)
    rows += std::count(b.tokens.begin() + r * b.seq, b.tokens.begin() + (r + 1) * b.seq, 2) >= 2 * mix.min_run;
  return double(rows) / b.size;
}

TEST(CorpusRows, SpansTypedTwiceComeFromEachPartEvenly) {
  const double anywhere = rows_copying_the_small_part({});
  const double by_part = rows_copying_the_small_part({{0, 19000}, {19000, 20000}});
  EXPECT_LT(anywhere, 0.2);
  EXPECT_GT(by_part, 0.45);  // half the spans, and the rows that reach the small part anyway
  EXPECT_LT(by_part, 0.6);
}

TEST(CorpusRows, RejectsAPartOutsideTheCorpusOrTooShort) {
  RowMix mix;
  std::mt19937 rng(1);
  const std::vector<int> corpus(1000, 1);
  mix.span_parts = {{0, 1001}};
  EXPECT_THROW(corpus_rows(corpus, {3}, 0, 128, 4, mix, rng), std::invalid_argument);
  mix.span_parts = {{0, 30}};  // shorter than the longest run, 60
  EXPECT_THROW(corpus_rows(corpus, {3}, 0, 128, 4, mix, rng), std::invalid_argument);
}

TEST(Trainer, LearningRateWarmsUpThenDecays) {
  TrainOptions o;
  o.steps = 1000;
  o.warmup = 100;
  EXPECT_FLOAT_EQ(learning_rate(o, 50), o.lr * 0.5f);
  EXPECT_FLOAT_EQ(learning_rate(o, 100), o.lr);
  EXPECT_NEAR(learning_rate(o, 1000), o.lr * o.final_lr_fraction, 1e-7);
  EXPECT_LT(learning_rate(o, 600), learning_rate(o, 300));
}

}  // namespace
}  // namespace lm
