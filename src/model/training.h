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
  // steps do not depend on how they are sliced into frames.
  void advance(int steps, double budget_ms);

  const train::Run* run() const { return run_.get(); }          // null if the configuration is bad
  const train::Run* compare() const { return compare_.get(); }  // null without a compared setting
  // True once the run has reached train::Limits::max_steps; it then takes no more steps.
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
};

}  // namespace lab
