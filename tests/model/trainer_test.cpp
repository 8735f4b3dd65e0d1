// A short training run from scratch (src/lm/trainer.h) on the project's corpus: it learns
// (the loss falls) and a seed gives the same weights every time.
#include <gtest/gtest.h>

#include "read_file.h"
#include "trainer.h"
#include "weights_file.h"

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
