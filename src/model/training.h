// view=train's runs (issue 11): the run of the state's configuration and, when the state
// names a compared setting (vs), a second run that differs in that one setting only. Both are
// rebuilt at step 0 when the configuration or the compared setting changes, and advance in
// slices between frames, so the page keeps drawing while they train.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "state.h"
#include "trainer.h"

namespace lab {

class Training {
 public:
  // Rebuilds the runs if s.train or s.vs changed since they were built.
  void update(const State& s);
  // Back to step 0 with the same configuration.
  void reset();
  // One step of each run.
  void step();
  // Up to `steps` steps of each run, stopping once `budget_ms` have passed, so that a frame
  // that trains stays short whatever the model's size. Deterministic all the same: a run's
  // steps do not depend on how they are sliced into frames. Playing stops by itself (stop())
  // at the step that has every run learned, or at the step budget.
  void advance(int steps, double budget_ms);

  // Held-out accuracy at which a run has learned its task (the view's "95% at step N").
  static constexpr double kLearned = 0.95;
  // Why playing stopped by itself: every run reached kLearned in advance() (a page left
  // playing would train on with nobody watching), or the step budget; none while it may go on.
  enum class Stop { none, learned, budget };
  Stop stop() const { return stop_; }
  // Play pressed again: the runs train on (past kLearned, up to the budget).
  void resume() { stop_ = finished() ? Stop::budget : Stop::none; }

  const train::Run* run() const { return run_.get(); }          // null if the configuration is bad
  const train::Run* compare() const { return compare_.get(); }  // null without a compared setting
  // True once the run has reached train::Limits::max_steps (the step budget); it then takes
  // no more steps.
  bool finished() const;
  // Why there is no run, or no compared run ("" when there is).
  const std::string& error() const { return error_; }
  const std::string& compare_error() const { return compare_error_; }
  // Changes with every step or rebuild (for the maps' textures).
  std::uint64_t version() const { return version_; }
  // attentionLab.experiment() in view=train: train::view_json(), or {"view", "error"}.
  std::string json() const;

 private:
  train::Config config_, compare_config_;
  std::string vs_;
  bool built_ = false, compared_ = false;
  std::unique_ptr<train::Run> run_, compare_;
  std::string error_, compare_error_;
  std::uint64_t version_ = 0;
  Stop stop_ = Stop::none;
};

}  // namespace lab
