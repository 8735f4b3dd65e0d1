#include "experiment.h"

#include <algorithm>
#include <cstdio>
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

std::string exact(float x) {  // every bit of the float: nearby multipliers are different data
  char text[32];
  std::snprintf(text, sizeof text, "%a", double(x));
  return text;
}

// Keys per tile: the state's, at most n (a short sequence is one tile).
int tile_of(const State& s) { return std::min(s.tile, s.nq); }

// The parameters each view reads, as text: equal keys compute equal data.
std::string parameters(const State& s) {
  const std::string seed = "&seed=" + std::to_string(s.seed);
  if (s.view == "scaling") return "scaling&dk=" + std::to_string(s.dk) + seed;
  if (s.view == "gradients") return "gradients&mult=" + exact(s.mult) + "&row=" + std::to_string(s.row) + seed;
  if (s.view == "pitfalls" || s.view == "stability") return s.view + seed;  // the pitfall shown is a view choice
  if (s.view == "tiling") return "tiling&n=" + std::to_string(s.nq) + "&tile=" + std::to_string(tile_of(s)) + seed;
  if (s.view == "cost") return std::string("cost&run=") + (s.run ? "1" : "0");
  if (s.view == "heads")
    return "heads&h=" + std::to_string(s.heads) + "&kv=" + std::to_string(s.kv_heads) + "&nq=" + std::to_string(s.nq) +
           "&nk=" + std::to_string(s.nk) + "&dk=" + std::to_string(s.dk) + "&dv=" + std::to_string(s.dv) + seed;
  return "";
}

experiments::ExperimentData compute(const State& s) {
  if (s.view == "scaling") return experiments::scaling(s.dk, s.seed);
  if (s.view == "gradients") return experiments::gradients(s.mult, s.seed, s.row);
  if (s.view == "pitfalls") return experiments::pitfalls(s.seed);
  if (s.view == "stability") return experiments::stability(s.seed);
  if (s.view == "cost") return experiments::cost_plan();
  if (s.view == "tiling") {
    if (s.nq > Limits::max_tiling_n)
      throw std::invalid_argument("the tiling view walks at most " + std::to_string(Limits::max_tiling_n) + " queries (n=" +
                                  std::to_string(s.nq) + ")");
    return experiments::tiling(s.nq, tile_of(s), s.seed);
  }
  return experiments::heads(s.heads, s.kv_heads, s.nq, s.nk, s.dk, s.dv, s.seed);
}

}  // namespace

void Experiment::update(const State& s) {
  const std::string key = parameters(s);
  if (key == key_) return;
  key_ = key;
  view_ = s.view;
  data_.reset();
  cost_.reset();
  error_.clear();
  json_.clear();
  ++version_;
  if (key.empty()) return;
  if (s.view == "cost" && s.run) return restart();
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
  if (key_ != "cost&run=1") return;  // only while the state asks for a measurement
  cost_ = std::make_unique<experiments::CostMeasurement>();
  data_ = cost_->data();
  json_.clear();
  ++version_;
}

const std::string& Experiment::json() const {
  if (json_.empty()) {
    if (data_) json_ = experiments::experiment_json(*data_);
    else if (!error_.empty()) json_ = nlohmann::json{{"view", view_}, {"error", error_}}.dump();
    else json_ = "null";
  }
  return json_;
}

}  // namespace lab
