#include "model_files.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "i18n.h"
#include "lab_file.h"

namespace lab {

namespace {

using Json = nlohmann::json;

const WeightSource kModel{"model/tiny-lm.bin", "model/report.json"};
const WeightSource kOneLayer{"model/one-layer/tiny-lm.bin", "model/one-layer/report.json"};

const WeightSource& source_of(const State& s) { return s.model == LanguageModelChoice::one_layer ? kOneLayer : kModel; }

// Where an opened model is kept among the files: apart from every path under the site.
std::string opened_key(const std::string& name) { return "opened/" + name; }

// The folder of a file's path under the site, with its slash ("model/one-layer/").
std::string folder_of(const std::string& name) { return name.substr(0, name.rfind('/') + 1); }

// A report's "heads", in the model's order (layer by layer); throws on a list that does not
// describe this model.
std::vector<HeadReport> read_heads(const Json& list, const lm::LanguageModel& m) {
  std::vector<HeadReport> heads(std::size_t(m.head_count()));
  std::vector<bool> seen(heads.size(), false);
  for (const Json& h : list) {
    const int layer = h.at("layer").get<int>(), head = h.at("head").get<int>();
    if (layer < 0 || layer >= m.config.layers || head < 0 || head >= m.config.heads)
      throw std::invalid_argument("head " + std::to_string(layer) + "." + std::to_string(head) + " is not the model's");
    const std::size_t i = std::size_t(layer * m.config.heads + head);
    heads[i] = {h.at("previous_token").get<double>(), h.at("induction_random").get<double>(),
                h.at("induction_sentences").get<double>(), h.at("label").get<std::string>()};
    seen[i] = true;
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end()) throw std::invalid_argument("a head is missing");
  return heads;
}

Checkpoint read_checkpoint(const Json& at, const std::string& weights, int step, const lm::LanguageModel& m) {
  return {step, weights, at.at("loss").at("held_out").get<double>(),
          at.at("copying").at("sentences").at("ratio").get<double>(),
          at.at("copying").at("random").at("ratio").get<double>(), read_heads(at.at("heads"), m)};
}

// The report's heads and, where its run kept them, its checkpoints and then the model's own
// step (the report's top level measures the last weights); throws where the report is not
// this model's.
void read_report(const std::string& text, Weights& w) {
  const Json r = Json::parse(text);
  const lm::LanguageModel& m = *w.model;
  w.heads = read_heads(r.at("heads"), m);
  const Json& training = r.at("training");
  if (!training.contains("checkpoints") || training.at("checkpoints").empty()) return;
  for (const Json& c : training.at("checkpoints"))
    w.checkpoints.push_back(read_checkpoint(c, folder_of(w.name) + c.at("file").get<std::string>(), c.at("step").get<int>(), m));
  w.checkpoints.push_back(read_checkpoint(r, w.name, training.at("steps").get<int>(), m));
}

}  // namespace

std::optional<WeightSource> ModelFiles::wanted(const State& s) const {
  if (s.view != View::model || s.model == LanguageModelChoice::opened) return std::nullopt;
  const auto asked = [&](const std::string& name) { return std::count(asked_.begin(), asked_.end(), name) > 0; };
  const WeightSource& source = source_of(s);
  if (!asked(source.weights)) return source;
  const Weights* w = model(s);
  if (!w || s.checkpoint == 0) return std::nullopt;
  for (const Checkpoint& c : w->checkpoints)
    if (!asked(c.weights)) return WeightSource{c.weights, ""};
  return std::nullopt;
}

void ModelFiles::deliver(const std::string& name, const std::string& bytes, const std::string& report,
                         const std::string& error) {
  Weights w;
  w.name = name;
  w.error = error;
  if (w.error.empty()) {
    try {
      w.model = std::make_shared<const lm::LanguageModel>(lm::parse(bytes, name));
    } catch (const std::exception& e) {
      w.error = e.what();
    }
  }
  if (w.model) {
    const bool checkpoint = name != kModel.weights && name != kOneLayer.weights;
    if (!checkpoint) {
      try {
        read_report(report, w);
      } catch (const std::exception& e) {
        w.heads.clear();
        w.checkpoints.clear();
        w.report_error = folder_of(name) + "report.json: " + e.what();
      }
    }
  }
  files_[name] = std::move(w);
}

const lm::LanguageModel& ModelFiles::open(const std::vector<lm::ModelFile>& files) {
  auto model = std::make_shared<const lm::LanguageModel>(lm::read_model(files));
  Weights w;
  w.name = model->name;
  w.model = model;
  Weights& kept = files_[opened_key(model->name)] = std::move(w);
  not_opened_.erase(model->name);
  return *kept.model;
}

std::vector<std::string> ModelFiles::opened() const {
  std::vector<std::string> names;
  for (const auto& [key, w] : files_)
    if (key.rfind(opened_key(""), 0) == 0) names.push_back(w.name);
  return names;
}

std::shared_ptr<const lm::Circuits> ModelFiles::circuits(const Weights& w) {
  // `w` is one of files_ (the site's path or an opened model's key): found by its address.
  const auto it = std::find_if(files_.begin(), files_.end(), [&](const auto& f) { return &f.second == &w; });
  if (it == files_.end()) return nullptr;  // not_opened_'s: no model
  Weights& at = it->second;
  if (!at.circuits && at.model) at.circuits = std::make_shared<const lm::Circuits>(lm::circuits(*at.model));
  return at.circuits;
}

const Weights* ModelFiles::find(const std::string& name) const {
  const auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

const Weights* ModelFiles::model(const State& s) const {
  if (s.model != LanguageModelChoice::opened) return find(source_of(s).weights);
  if (const Weights* w = find(opened_key(s.model_name))) return w;
  Weights& missing = not_opened_[s.model_name];
  missing.name = s.model_name;
  missing.error = i18n::format(tr("model=%s is a model opened from its files, which a link cannot carry: open them with "
                                  "Open model… (or drop them on the lab)"),
                               s.model_name.c_str());
  return &missing;
}

const Checkpoint* ModelFiles::checkpoint(const State& s) const {
  const Weights* w = model(s);
  if (!w || s.checkpoint == 0) return nullptr;
  for (const Checkpoint& c : w->checkpoints)
    if (c.step == s.checkpoint) return &c;
  return nullptr;
}

const Weights* ModelFiles::shown(const State& s) const {
  const Weights* w = model(s);
  const Checkpoint* c = checkpoint(s);
  if (!w || !w->model || !c) return w;
  const Weights* at = find(c->weights);
  return at && at->model ? at : w;
}

bool ModelFiles::checkpoint_loading(const State& s) const {
  const Checkpoint* c = checkpoint(s);
  return c && !find(c->weights);
}

std::string ModelFiles::checkpoint_error(const State& s) const {
  const Weights* w = model(s);
  if (!w || !w->model || s.checkpoint == 0) return "";
  if (w->checkpoints.empty())
    return i18n::format(tr("checkpoint=%d: this model's run kept no weights along the way"), s.checkpoint);
  const Checkpoint* c = checkpoint(s);
  if (!c) {
    std::string steps;
    for (const Checkpoint& k : w->checkpoints) steps += (steps.empty() ? "" : ", ") + std::to_string(k.step);
    return i18n::format(tr("checkpoint=%d is not a step whose weights were kept: %s"), s.checkpoint, steps.c_str());
  }
  const Weights* at = find(c->weights);
  return at && !at->model ? at->error : "";
}

}  // namespace lab
