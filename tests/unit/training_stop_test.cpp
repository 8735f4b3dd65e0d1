// The training lab stops playing by itself (issue 29): at the step where every run has learned
// its task (held-out accuracy ≥ 95%), saying why, and trains on when Play is pressed again.
// The expected step is found here from each run's own accuracy series.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "state.h"
#include "training.h"

namespace {

using Stop = lab::Training::Stop;

lab::State train_state(const std::string& vs = "") {
  lab::State s;
  s.view = lab::View::train;
  s.train = train::defaults(train::Task::reverse);
  s.vs = vs;
  return s;
}

// The first step (1-based) whose held-out accuracy reached `level`, or -1.
int first_at(const std::vector<double>& accuracy, double level) {
  const auto it = std::find_if(accuracy.begin(), accuracy.end(), [&](double a) { return a >= level; });
  return it == accuracy.end() ? -1 : int(it - accuracy.begin()) + 1;
}

// Frames of `steps` steps each (no time limit) until playing stops by itself, at most `frames`.
void play(lab::Training& t, int steps, int frames = 400) {
  for (int f = 0; f < frames && t.stop() == Stop::none; ++f) t.advance(steps, 1e9);
}

TEST(TrainingStop, PlayingStopsAtTheStepThatLearnsTheTask) {
  lab::Training t;
  t.update(train_state());
  play(t, 7);
  ASSERT_EQ(t.stop(), Stop::learned);
  const std::vector<double>& accuracy = t.run()->history().accuracy;
  const int learned = first_at(accuracy, 0.95);
  ASSERT_GT(learned, 1);
  EXPECT_EQ(t.run()->steps(), learned) << "not a step past the one that learned it";

  // Stopped, further frames train no more.
  t.advance(7, 1e9);
  EXPECT_EQ(t.run()->steps(), learned);
  // Play pressed again: it trains on, past 95%, and does not stop at the next frame.
  t.resume();
  EXPECT_EQ(t.stop(), Stop::none);
  t.advance(7, 1e9);
  t.advance(7, 1e9);
  EXPECT_EQ(t.run()->steps(), learned + 14);
  EXPECT_EQ(t.stop(), Stop::none);
  // Reset starts over, ready to stop again.
  t.reset();
  EXPECT_EQ(t.run()->steps(), 0);
  EXPECT_EQ(t.stop(), Stop::none);
}

TEST(TrainingStop, AComparedRunIsWaitedFor) {
  lab::Training t;
  lab::State s = train_state("scale:none");
  s.train.d_model = s.train.d_k = 64;  // the unscaled run starts saturated and learns later
  t.update(s);
  ASSERT_NE(t.compare(), nullptr);
  play(t, 5);
  ASSERT_EQ(t.stop(), Stop::learned);
  const int first = first_at(t.run()->history().accuracy, 0.95);
  const int second = first_at(t.compare()->history().accuracy, 0.95);
  ASSERT_GT(first, 0);
  ASSERT_GT(second, 0);
  EXPECT_EQ(t.run()->steps(), std::max(first, second));
}

TEST(TrainingStop, AStepByHandNeverStops) {
  lab::Training t;
  t.update(train_state());
  for (int i = 0; i < 400; ++i) t.step();
  EXPECT_GT(first_at(t.run()->history().accuracy, 0.95), 0);
  EXPECT_EQ(t.stop(), Stop::none) << "only playing stops by itself";
}

}  // namespace
