#include "train_json.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "contract.h"  // the contract's names of the scale, which the training request shares

namespace train {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

// Every whole-number field of the request is positive, so a value beyond int becomes -1 and
// fails its field's own range check, with the same sentence as any other value out of range.
int whole(const json& j, const char* field) {
  if (!j.is_number_integer() && !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
    fail(std::string(field) + ": expected a whole number, got " + (j.is_number() ? j.dump() : j.type_name()));
  const double x = j.get<double>();
  return std::fabs(x) > 2147483647.0 ? -1 : int(x);
}

// A number beyond float's range becomes ±∞, which every field's range check refuses.
float number(const json& j, const char* field) {
  if (!j.is_number()) fail(std::string(field) + ": expected a number, got " + j.type_name());
  return float(j.get<double>());
}

std::string text(const json& j, const char* field) {
  if (!j.is_string()) fail(std::string(field) + ": expected a string, got " + j.type_name());
  return j.get<std::string>();
}

// NaN and ±∞ as the strings the experiment views use (JSON cannot hold them).
json finite_or_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

json series(const std::vector<double>& xs) {
  json out = json::array();
  for (double x : xs) out.push_back(finite_or_text(x));
  return out;
}

json history_json(const History& h) {
  json entropy = json::array();
  for (const auto& heads : h.entropy) entropy.push_back(series(heads));
  json reached = json::object();
  for (const char* level : {"0.9", "0.95"}) {
    const int n = h.steps_to_accuracy(std::stod(level));
    reached[level] = n < 0 ? json(nullptr) : json(n);
  }
  return {{"loss", series(h.loss)},
          {"accuracy", series(h.accuracy)},
          {"entropy", entropy},
          {"grad_norm_qk", series(h.grad_norm_qk)},
          {"steps_to_accuracy", reached}};
}

json config_json(const Config& c) {
  return {{"task", task_name(c.task)},     {"layers", c.layers},
          {"heads", c.heads},              {"d_model", c.d_model},
          {"d_k", c.d_k},                  {"seq", c.seq},
          {"vocab", c.vocab},              {"causal", c.causal},
          {"scale", attn::io::scale_name(c.scale)},  {"positions", kPositionNames[int(c.positions)]},
          {"init_std", c.init_std},        {"proj_std", c.projection_std()},
          {"lr", c.lr},                    {"batch", c.batch},
          {"seed", c.seed}};
}

json run_json(const Run& run) {
  json out = history_json(run.history());
  out["config"] = config_json(run.config());
  out["steps"] = run.steps();
  const Maps& m = run.maps();
  json maps = json::array();
  for (std::size_t i = 0; i < m.weights.size(); ++i) {
    json rows = json::array();
    for (Eigen::Index r = 0; r < m.weights[i].rows(); ++r) {
      json row = json::array();
      for (Eigen::Index c = 0; c < m.weights[i].cols(); ++c) row.push_back(m.weights[i](r, c));
      rows.push_back(row);
    }
    const int heads = run.config().heads;
    maps.push_back({{"layer", int(i) / heads}, {"head", int(i) % heads}, {"weights", rows}});
  }
  out["maps"] = {{"tokens", m.tokens}, {"targets", m.targets}, {"predicted", m.predicted}, {"heads", maps}};
  return out;
}

}  // namespace

Request parse_request(std::string_view json_text) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    fail("request: invalid JSON at byte " + std::to_string(e.byte));
  }
  if (!j.is_object()) fail("request: expected a JSON object");
  Request r;
  // The task first: its defaults are the base the other fields change.
  if (j.contains("task")) {
    Task task;
    if (!parse_task(text(j["task"], "task"), task)) fail("task: expected " + task_names("or"));
    r.config = defaults(task);
  }
  for (const auto& [key, value] : j.items()) {
    Config& c = r.config;
    const char* k = key.c_str();
    if (key == "task") continue;
    else if (key == "layers") c.layers = whole(value, k);
    else if (key == "heads") c.heads = whole(value, k);
    else if (key == "d_model") c.d_model = whole(value, k);
    else if (key == "d_k") c.d_k = whole(value, k);
    else if (key == "seq") c.seq = whole(value, k);
    else if (key == "vocab") c.vocab = whole(value, k);
    else if (key == "batch") c.batch = whole(value, k);
    else if (key == "steps") r.steps = whole(value, k);
    else if (key == "seed") {
      const int seed = whole(value, k);
      if (seed < 0) fail("seed: expected a whole number from 0 to 2147483647");
      c.seed = std::uint32_t(seed);
    } else if (key == "causal") {
      if (!value.is_boolean()) fail(std::string("causal: expected true or false, got ") + value.type_name());
      c.causal = value.get<bool>();
    } else if (key == "scale") {
      if (!attn::io::parse_scale_name(text(value, k), c.scale)) fail("scale: expected inv_sqrt_dk, none or inv_dk");
    } else if (key == "positions") {
      const std::string p = text(value, k);
      if (p == "learned") c.positions = Positions::learned;
      else if (p == "sinusoidal") c.positions = Positions::sinusoidal;
      else fail("positions: expected learned or sinusoidal");
    } else if (key == "init_std") c.init_std = number(value, k);
    else if (key == "proj_std") c.proj_std = number(value, k);
    else if (key == "lr") c.lr = number(value, k);
    else fail("request: unknown field \"" + key + "\"");
  }
  if (r.steps < 0 || r.steps > Limits::max_steps)
    fail("steps: expected a whole number from 0 to " + std::to_string(Limits::max_steps));
  // One call must end in minutes, not days: bound the tokens it trains on.
  const long long tokens = (long long)(r.steps) * r.config.batch * r.config.seq;
  if (tokens > Limits::max_request_tokens)
    fail("steps: " + std::to_string(r.steps) + " steps of " + std::to_string(r.config.batch) + " × " +
         std::to_string(r.config.seq) + " tokens exceed the " + std::to_string(Limits::max_request_tokens) +
         " tokens one request may train on");
  const std::string problem = validate(r.config);
  if (!problem.empty()) fail(problem);
  return r;
}

std::string train_json(std::string_view json_text, bool* ok) {
  if (ok) *ok = false;
  try {
    const Request r = parse_request(json_text);
    Run run(r.config);
    for (int i = 0; i < r.steps; ++i) run.step();
    if (ok) *ok = true;
    return history_json(run.history()).dump();
  } catch (const std::invalid_argument& e) {
    return json{{"error", e.what()}}.dump();
  } catch (const std::bad_alloc&) {
    return json{{"error", "request: out of memory"}}.dump();
  } catch (const std::exception& e) {  // nothing may escape a WebAssembly call
    return json{{"error", std::string("request: ") + e.what()}}.dump();
  }
}

std::string view_json(const Run& run, const Run* compare) {
  json out = run_json(run);
  out["view"] = "train";
  if (compare) out["compare"] = run_json(*compare);
  return out.dump();
}

}  // namespace train
