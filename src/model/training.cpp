#include "training.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "i18n.h"
#include "train_json.h"

namespace lab {
namespace {

// A run of `c`, or null and the reason. validate() keeps bad configurations out of the state,
// but a Run must never take the page down, so its own refusal is caught here too.
std::unique_ptr<train::Run> make_run(const train::Config& c, std::string& error) {
  try {
    error.clear();
    return std::make_unique<train::Run>(c);
  } catch (const std::invalid_argument& e) {
    error = e.what();
  } catch (const std::bad_alloc&) {
    error = N_("out of memory");  // in English, as the JSON says it; the view translates it
  }
  return nullptr;
}

// Whether `r` has reached Training::kLearned at some step.
bool reached(const train::Run* r) { return r && r->history().steps_to_accuracy(Training::kLearned) > 0; }

}  // namespace

void Training::update(const State& s) {
  if (built_ && s.train == config_ && s.vs == vs_) return;
  config_ = s.train;
  vs_ = s.vs;
  built_ = true;
  compare_error_.clear();
  compared_ = !vs_.empty() && (compare_error_ = compare_config(s, compare_config_)).empty();
  reset();
}

void Training::reset() {
  if (!built_) return;
  run_ = make_run(config_, error_);
  compare_.reset();
  stop_ = Stop::none;
  if (run_ && compared_) compare_ = make_run(compare_config_, compare_error_);
  ++version_;
}

void Training::step() {
  // A run stops where a training request must (train::Limits::max_steps): a page left
  // playing would otherwise grow its history without bound.
  if (!run_ || finished()) return;
  run_->step();
  if (compare_) compare_->step();
  ++version_;
}

void Training::advance(int steps, double budget_ms) {
  using clock = std::chrono::steady_clock;
  const clock::time_point start = clock::now();
  // Only the step that has every run learned stops: after resume() they train on.
  const auto learned = [this] { return reached(run_.get()) && (!compare_ || reached(compare_.get())); };
  const bool learned_before = learned();
  for (int i = 0; i < steps && run_ && stop_ == Stop::none; ++i) {
    step();
    if (finished()) stop_ = Stop::budget;
    else if (!learned_before && learned()) stop_ = Stop::learned;
    if (std::chrono::duration<double, std::milli>(clock::now() - start).count() >= budget_ms) break;
  }
}

bool Training::finished() const { return run_ && run_->steps() >= train::Limits::max_steps; }

std::string Training::json() const {
  if (!run_) return nlohmann::json{{"view", "train"}, {"error", error_}}.dump();
  return train::view_json(*run_, compare_.get());
}

}  // namespace lab
