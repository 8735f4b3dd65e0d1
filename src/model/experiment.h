// The experiment behind the current view (issue 6): computed through src/experiments once
// per change of its parameters, never per frame, and kept with its JSON for the page API.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "experiment_json.h"
#include "state.h"

namespace lab {

class Experiment {
 public:
  // Runs the experiment of s.view if its parameters changed; clears it for the walkthrough
  // and compare views. Bad parameters leave no data and the experiment's own message.
  void update(const State& s);

  // The data of the view named, or nullptr (another view, or bad parameters).
  template <class T>
  const T* get() const {
    return data_ ? std::get_if<T>(&*data_) : nullptr;
  }
  const std::string& error() const { return error_; }  // "" unless the parameters were bad
  // Changes whenever the data does (for the heatmaps' textures).
  std::uint64_t version() const { return version_; }
  // attentionLab.experiment(): the data's JSON, or {"view": …, "error": …}; "null" outside
  // the experiment views.
  const std::string& json() const;

  // view=cost's measurement, made while the state's run is on: whether it has work left, a
  // slice of it (whole chunks within about `budget_ms`, made by the app between frames), and
  // a new measurement from the start.
  bool running() const { return cost_ && !cost_->finished(); }
  void advance(double budget_ms);
  void restart();

 private:
  std::string key_;  // the parameters the data was computed from
  View view_ = View::walkthrough;
  bool measuring_ = false;  // view=cost with run=1: its data is the measurement's
  std::optional<experiments::ExperimentData> data_;
  std::string error_;
  std::uint64_t version_ = 0;
  mutable std::string json_;  // filled on the first request after a change
  std::unique_ptr<experiments::CostMeasurement> cost_;
};

}  // namespace lab
