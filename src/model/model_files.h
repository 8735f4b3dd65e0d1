// view=model's weight files (docs/model.md): the lab's language model, its one-layer twin
// (model=one-layer), the lab's model as it was along its training (checkpoint=, the files its
// report's training.checkpoints lists), and the models a user opened from their own files
// (model=NAME, docs/your-model.md). None is part of the app: the platform fetches each of the lab's
// the first time the state wants it (wanted(), loading()) and hands it in (deliver()); a model's
// checkpoints are all wanted as soon as the state names one, so that a slider over them moves
// without waiting.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits.h"
#include "format.h"
#include "language_model.h"
#include "state.h"

namespace lab {

// What a report measured for one head (index layer × heads + head) on the probe text
// (docs/model.md, "Its heads").
struct HeadReport {
  double previous_token = 0, induction_random = 0, induction_sentences = 0;
  std::string label;
};

// A step of the model's training whose weights were kept, with what the report measured there:
// the held-out file's loss, the copy ratio (second copy's mean loss over the first's) on the
// tuning sentences and on the random strings typed twice, and every head's scores.
struct Checkpoint {
  int step = 0;
  std::string weights;  // the file's path under the site ("model/checkpoints/step-250.bin")
  double held_out_loss = 0, copy_sentences = 0, copy_random = 0;
  std::vector<HeadReport> heads;
};

// One weight file as delivered: the model, or why not (`error`, naming the file); its circuits
// once shown (ModelFiles::circuits); its report's heads ("" report_error) and, for a model whose
// run kept them, its checkpoints in order of step, the last being the model itself.
struct Weights {
  std::string name;  // the weight file's path under the site
  std::shared_ptr<const lm::LanguageModel> model;
  std::shared_ptr<const lm::Circuits> circuits;  // null until first asked for
  std::vector<HeadReport> heads;
  std::vector<Checkpoint> checkpoints;
  std::string error, report_error;
};

// The files of one model as the platform fetches them: the weights and the report beside them
// ("" for a checkpoint, whose scores are in its model's report).
struct WeightSource {
  std::string weights, report;
};

class ModelFiles {
 public:
  // The next file the state wants that has not been asked for, if any.
  std::optional<WeightSource> wanted(const State& s) const;
  void loading(const std::string& weights) { asked_.push_back(weights); }
  void deliver(const std::string& name, const std::string& bytes, const std::string& report, const std::string& error);
  // A model opened from its files (docs/your-model.md: Open model…, attentionLab.loadModel,
  // the desktop's --model), kept under its name (model=NAME) beside any opened before; returns
  // it. Throws std::runtime_error naming the file and the problem, and then keeps nothing.
  const lm::LanguageModel& open(const std::vector<lm::ModelFile>& files);
  // The names of the models opened, in the order of their names.
  std::vector<std::string> opened() const;

  // The model the state shows (the lab's or the twin): nullptr until its file has come.
  const Weights* model(const State& s) const;
  // The weights the state shows: model(s)'s, or its checkpoint's where the state names one
  // that has come; nullptr until the model's file has come.
  const Weights* shown(const State& s) const;
  // The checkpoint the state names, in model(s)'s list; nullptr for none (checkpoint=0), one the
  // model did not keep (checkpoint_error() says why) or a model not yet come.
  const Checkpoint* checkpoint(const State& s) const;
  // Why the state's checkpoint cannot be shown ("" when it can, or while it loads), in the
  // interface's language.
  std::string checkpoint_error(const State& s) const;
  // Whether the state's checkpoint is asked for and not come yet.
  bool checkpoint_loading(const State& s) const;
  // The circuits of delivered weights `w` (a file of this object), computed the first time
  // they are asked for: they cost as much as several forward passes (docs/performance.md), and
  // the checkpoints all arrive together while only the one on the slider is shown.
  std::shared_ptr<const lm::Circuits> circuits(const Weights& w);

 private:
  const Weights* find(const std::string& name) const;
  std::vector<std::string> asked_;
  std::map<std::string, Weights> files_;  // by path under the site, and "opened/NAME"
  // model=NAME without its files (a link cannot carry them): a model that failed, saying so.
  mutable std::map<std::string, Weights> not_opened_;
};

}  // namespace lab
