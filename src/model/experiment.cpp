#include "experiment.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cost.h"
#include "gradients.h"
#include "heads.h"
#include "pitfalls.h"
#include "scaling.h"
#include "stability.h"
#include "tiling.h"

namespace lab {
namespace {

// Keys per tile: the state's, at most n (a short sequence is one tile).
int tile_of(const State& s) { return std::min(s.tile, s.nq); }

using experiments::ExperimentData;

// The model's row of the registry of views (choices.h): how each view's data is computed.
// nullptr: a view without experiment data (the walkthrough's two; view=train's runs are
// Training's, view=model's numbers ModelView's). A view missing here, or out of order, does not build.
struct Computation {
  View view;
  ExperimentData (*compute)(const State&);
};
constexpr Computation kComputations[] = {
    {View::walkthrough, nullptr},
    {View::compare, nullptr},
    {View::scaling, [](const State& s) -> ExperimentData { return experiments::scaling(s.dk, s.seed); }},
    {View::gradients, [](const State& s) -> ExperimentData { return experiments::gradients(s.mult, s.seed, s.row); }},
    {View::pitfalls, [](const State& s) -> ExperimentData { return experiments::pitfalls(s.seed); }},
    {View::stability, [](const State& s) -> ExperimentData { return experiments::stability(s.seed); }},
    {View::tiling,
     [](const State& s) -> ExperimentData {
       if (s.nq > Limits::max_tiling_n)
         throw std::invalid_argument("the tiling view walks at most " + std::to_string(Limits::max_tiling_n) +
                                     " queries (n=" + std::to_string(s.nq) + ")");
       return experiments::tiling(s.nq, tile_of(s), s.seed);
     }},
    {View::heads,
     [](const State& s) -> ExperimentData {
       return experiments::heads(s.heads, s.kv_heads, s.nq, s.nk, s.dk, s.dv, s.seed);
     }},
    {View::cost, [](const State&) -> ExperimentData { return experiments::cost_plan(); }},
    {View::train, nullptr},
    {View::model, nullptr},  // ModelView's, from the weights the page fetches
};
static_assert(in_view_order(kComputations));

}  // namespace

void Experiment::update(const State& s) {
  const auto compute = kComputations[std::size_t(s.view)].compute;
  // The parameters its data is computed from (src/state/keys.cpp's table of keys says which).
  const std::string key = compute ? experiment_parameters(s) : "";
  if (key == key_) return;
  key_ = key;
  view_ = s.view;
  measuring_ = s.view == View::cost && s.run;
  data_.reset();
  cost_.reset();
  error_.clear();
  json_.clear();
  ++version_;
  if (key.empty()) return;
  if (measuring_) return restart();
  try {
    data_ = compute(s);
  } catch (const std::invalid_argument& e) {
    error_ = e.what();
  }
}

void Experiment::advance(double budget_ms) {
  if (!running()) return;
  cost_->advance(budget_ms);
  data_ = cost_->data();
  json_.clear();
  ++version_;
}

void Experiment::restart() {
  if (!measuring_) return;  // only while the state asks for a measurement
  cost_ = std::make_unique<experiments::CostMeasurement>();
  data_ = cost_->data();
  json_.clear();
  ++version_;
}

const std::string& Experiment::json() const {
  if (json_.empty()) {
    if (data_) json_ = experiments::experiment_json(*data_);
    else if (!error_.empty()) json_ = nlohmann::json{{"view", name_of(view_)}, {"error", error_}}.dump();
    else json_ = "null";
  }
  return json_;
}

}  // namespace lab
