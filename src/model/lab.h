// The model between the state and the views: turns a lab::State into the kernel's inputs,
// runs the reference kernel once per change, and keeps the trace the panels read.
// Data flows one way: state -> kernel -> trace -> views; views change the state only
// through set_state().
#pragma once

#include <string>
#include <vector>

#include "experiment.h"
#include "model_view.h"
#include "practice.h"
#include "reference.h"
#include "state.h"
#include "training.h"
#include "typed.h"  // seeded_values, seeded_weights

namespace lab {

class Lab {
 public:
  explicit Lab(State state);

  const State& state() const { return state_; }
  // How a new state relates to the one shown: an edit (the interface, the page's setState, a
  // host's message, undo) keeps typed values across a new shape or seed (typed.h); a link opened
  // from scratch or loaded data means only itself.
  enum class Change { edit, replace };
  // Normalises (the one place the app does: state.h's normalize) and applies a new state; the
  // kernel runs again only if a value it depends on changed (stepping, selecting a query or a
  // theme never recompute).
  void set_state(State state, Change change = Change::edit);
  // True once after every change of state (for the URL and the page's listeners).
  bool take_changed();

  // The shown sequence of the batch: Q (nq×dk), K (nk×dk), V (nk×dv) and its trace.
  const attn::Matrix& q() const { return q_[state_.batch]; }
  const attn::Matrix& k() const { return k_[state_.batch]; }
  const attn::Matrix& v() const { return v_[state_.batch]; }
  const attn::HeadTrace& head() const { return trace_.at(state_.batch, 0); }
  float scale() const { return options_.scale; }
  // Changes whenever the shown numbers do (a new computation or another sequence shown).
  std::uint64_t version() const { return (computations_ << 8) | std::uint64_t(state_.batch); }
  // Why key j is removed for query i in the shown sequence ("" if it is not).
  std::string mask_reason(int i, int j) const;

  // Axis labels: loaded tokens or the preset's when they fit, otherwise "q0", "k3", ...
  std::string query_label(int i) const;
  std::string key_label(int j) const;

  // The current computation in the response format of docs/contract.md, with "output",
  // "weights" and "scores", computed through the JSON contract like any other client.
  std::string trace_json() const;

  // The shown sequence's attention weights if only the scale were different (for comparing
  // 1/√d_k, none and 1/d_k): the kernel run again, once per computation and scale.
  const attn::Matrix& weights_with_scale(float scale) const;

  // Loaded data with several heads: every head's weights for the shown sequence, computed
  // once per change; empty with one head, or where that would be more than kHeadWeightsWork
  // multiply-adds (16 heads of 512 × 512 scores at d_k = d_v = 32 are).
  static constexpr std::uint64_t kHeadWeightsWork = std::uint64_t(1) << 28;
  const std::vector<attn::Matrix>& head_weights() const;

  // The current experiment view's data, computed once per change of its parameters.
  const Experiment& experiment() const { return experiment_; }
  // view=cost's measurement: the app's slice between frames while experiment().running(),
  // and the view's "Measure again".
  void measure(double budget_ms) { experiment_.advance(budget_ms); }
  void measure_again() { experiment_.restart(); }

  // view=train's runs. They advance only through the calls below, made by the app between
  // frames (the views ask for a step or a reset through ui::Memory).
  const Training& training() const { return training_; }
  void train_step() { training_.step(); }
  void train_reset() { training_.reset(); }
  // The frame's slice of training while state().play: steps_per_frame steps of each run, or
  // fewer once `budget_ms` have passed.
  void train_advance(double budget_ms) { training_.advance(state_.steps_per_frame, budget_ms); }
  // True while view=train plays a run that has not stopped by itself (what the app animates
  // for); once it has, the view sets play to 0 and says why (Training::stop()).
  bool training_running() const {
    return state_.view == View::train && state_.play && training_.run() && training_.stop() == Training::Stop::none;
  }
  // view=model's trained language model: fetched by the platform when the view first opens
  // (model().wanted()), delivered as the weight file's bytes and the report's text, or why not.
  const ModelView& model() const { return model_; }
  void model_loading(const std::string& weights) { model_.loading(weights); }
  void model_delivered(const std::string& name, const std::string& weights, const std::string& report,
                       const std::string& error) {
    model_.deliver(name, weights, report, error, state_);
  }
  // A model opened from its files (docs/your-model.md), then shown: view=model, model=NAME, the
  // text kept and what named the earlier model's heads or characters dropped. Throws
  // std::runtime_error naming the file and the problem; the state and the models kept are then
  // as they were.
  const lm::LanguageModel& open_model(const std::vector<lm::ModelFile>& files);
  // Its passes left pending by the last change (ModelView::pending()).
  void model_finish() { model_.finish(); }
  // Practice mode's questions (src/practice): the current one, a new one about what is on
  // screen now, and the answer to the current one (`value` as JSON text; a verdict with an
  // error when it cannot be read).
  const practice::Session& practice() const { return practice_; }
  void practice_next();
  practice::Verdict practice_answer(const std::string& value);
  // attentionLab.practice(): the question on screen, answered or not (the first one on the
  // first call, as the practice panel asks it on its first frame); only "Next question" moves on.
  std::string practice_question_json();

  // attentionLab.experiment(): the experiment's JSON, or the runs' in view=train.
  std::string experiment_json();

  // The scale factor a choice stands for at this d_k.
  float scale_of(attn::ScaleMode choice) const;

  // The matrices as the inputs panel edits them: (batch, rows, cols) flattened, whether
  // typed in or drawn from the seed.
  const std::vector<float>& flat_q() const { return flat_q_; }
  const std::vector<float>& flat_k() const { return flat_k_; }
  const std::vector<float>& flat_v() const { return flat_v_; }
  // Self-attention's projections (state().projected()): X of the shown sequence (nq × d_model),
  // W_Q, W_K (d_model × d_k) and W_V (d_model × d_v); flat as the inputs panel edits them.
  // Empty matrices without projections.
  const attn::Matrix& x() const { return x_[state_.batch]; }
  const attn::Matrix& w_q() const { return w_q_; }
  const attn::Matrix& w_k() const { return w_k_; }
  const attn::Matrix& w_v() const { return w_v_; }
  const std::vector<float>& flat_x() const { return flat_x_; }
  const std::vector<float>& flat_wq() const { return flat_wq_; }
  const std::vector<float>& flat_wk() const { return flat_wk_; }
  const std::vector<float>& flat_wv() const { return flat_wv_; }

 private:
  void recompute();
  attn::Options options_for(float scale) const;
  // The kernel's view of the current matrices (every sequence of the batch).
  attn::Inputs inputs() const;

  State state_;
  bool changed_ = true;
  std::vector<float> flat_q_, flat_k_, flat_v_;
  std::vector<attn::Matrix> q_, k_, v_;
  std::vector<float> flat_x_, flat_wq_, flat_wk_, flat_wv_;
  std::vector<attn::Matrix> x_;
  attn::Matrix w_q_, w_k_, w_v_;
  attn::Options options_;
  attn::Trace trace_;
  std::uint64_t computations_ = 0;
  Experiment experiment_;
  Training training_;
  ModelView model_;
  practice::Session practice_;
  struct ScaledWeights {
    std::uint64_t version;
    float scale;
    attn::Matrix weights;
  };
  mutable std::vector<ScaledWeights> scaled_weights_;  // filled on demand by a const view
  mutable std::vector<attn::Matrix> head_weights_;      // head_weights(), of heads_version_
  mutable std::uint64_t heads_version_ = ~0ull;
};

}  // namespace lab
