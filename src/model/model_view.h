// view=model (issue 35): the trained language model of docs/model.md on the state's text, with
// the state's heads switched off. Its weights are not part of the app: the platform fetches
// them when the view first opens, and the twin's or the checkpoints' when the state first names
// them (model_files.h; the page from the site, the desktop from its folder), and hands them in
// with deliver(); until then the view says it is loading, and a missing or truncated file
// leaves the weight file's sentence and the rest of the lab untouched.
//
// Everything the view shows is computed here once per change of the text, the ablation or the
// weights, never per frame: the forward pass (lm::analyse), and for every head the forward
// pass with that one head switched the other way (how much it matters on this text). The
// circuits (lm::circuits: OV, QK, composition) are computed once per weight file; the
// attribution at the chosen character (at, target, against) reads those passes again (a change
// of at/target/against runs none); an edit (edit=) runs two passes of its own.
//
// The flipped passes are three quarters of a keystroke's work (docs/performance.md), and only
// "matters", the composition's "without" and the attribution's totals need them: update()
// leaves them pending, so that the maps reach the screen first, and finish() runs them (the
// app a frame later; json() before it answers).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits.h"
#include "head_scores.h"  // lm::CopyLoss
#include "language_model.h"
#include "model_files.h"
#include "state.h"

namespace lab {

// What experiment() and loadModel() say of a model: {name, format, architecture, layers, heads,
// d_model, context, vocabulary, tokenizer, parameters}.
nlohmann::ordered_json model_json(const lm::LanguageModel& m);

class ModelView {
 public:
  // The state's model (the lab's or the twin) as update() last saw it: not come yet (or the
  // checkpoint the state names not come yet), computed on, or failed (error()).
  enum class Status { loading, ready, failed };
  Status status() const { return status_; }
  // The platform fetches each weight file once, the first time the state wants it (wanted()),
  // and says it started (loading()).
  std::optional<WeightSource> wanted(const State& s) const { return files_.wanted(s); }
  void loading(const std::string& weights) { files_.loading(weights); }
  // The view is on screen and its model's weights, or the checkpoint's it names, have not come
  // (neither loaded nor failed): it shows a notice in place of the figure.
  bool awaited(const State& s) const {
    return s.view == View::model && (!files_.model(s) || files_.checkpoint_loading(s));
  }
  // A weight file's bytes (`name`, its path under the site) and its report's text, or why they
  // could not be had (`error`, naming the file). A bad file (lm::parse's sentence) fails like a
  // missing one; a report that does not parse leaves the heads unlabelled, with report_error()
  // saying why.
  void deliver(const std::string& name, const std::string& weights, const std::string& report, const std::string& error,
               const State& s);
  // A model opened from its files (ModelFiles::open): kept, and shown once update() sees a
  // state naming it (model=NAME). Throws std::runtime_error naming the file and the problem,
  // changing nothing.
  const lm::LanguageModel& open(const std::vector<lm::ModelFile>& files);
  std::vector<std::string> opened() const { return files_.opened(); }
  // The model the state shows (the lab's or the twin), once its file has come: its checkpoints,
  // and the one the state names (nullptr for none or one it did not keep, checkpoint_error()
  // saying why; loading while its file is on its way).
  const Weights* base() const { return base_; }
  const Checkpoint* checkpoint() const { return checkpoint_; }
  const std::string& checkpoint_error() const { return checkpoint_error_; }
  bool checkpoint_loading() const { return checkpoint_loading_; }
  const std::string& error() const { return error_; }
  const std::string& report_error() const { return report_error_; }

  // Computes again if the text, the ablation or the weights changed, but for the flipped
  // passes (pending()); the attribution alone if only at, target or against did; the edit alone
  // if only edit did.
  void update(const State& s);
  // Whether the flipped passes of the last change are still to run: until finish(), `matters`,
  // `without` and `flipped_logits` are empty and the attribution has no totals.
  bool pending() const { return pending_; }
  void finish();

  const lm::LanguageModel* model() const { return model_.get(); }
  // The weight file's circuits (lm/circuits.h), computed once, when it is first shown; nullptr
  // without a model.
  const lm::Circuits* circuits() const { return circuits_.get(); }

  // What the report measured for each head of the weights shown (index layer × heads + head)
  // on the probe text (docs/model.md, "Its heads"), at the state's checkpoint if it names one:
  // empty when there is no report.
  const std::vector<HeadReport>& report() const { return report_; }

  // The numbers of the state's text: empty `tokens` when nothing could be computed.
  struct Result {
    std::vector<std::string> tokens;  // one string per character read, joining to the text read
    int characters = 0;               // in the whole text (the model reads at most its context)
    int unknown = 0;                  // characters read as "�" (not in the vocabulary)
    std::vector<std::pair<int, int>> ablate;  // the state's heads that the model has, switched off
    std::vector<std::pair<int, int>> unknown_heads;  // the state's heads it has not
    lm::Analysis analysis;                    // with `ablate` off
    // Per head: the mean loss on the text with that head switched the other way minus the mean
    // loss as set (positive: the model needs it here; for a head that is off, what switching it
    // back on would cost, so negative where it helped).
    std::vector<double> matters;
    std::vector<double> previous_token;  // each head's previous-token score on this text
    // When the text is a text typed twice ("Repeat my text": t + " " + t), its period and each
    // head's induction score on it; period 0 otherwise.
    int period = 0;
    std::vector<double> induction;
    // With a period and a character of each copy to score (t of two characters or more): the
    // mean loss on each copy (lm::copy_loss: the same characters of both,
    // each copy's first left out), as the report's copying effect is measured.
    std::optional<lm::CopyLoss> copy;
    // Per head, the logits (n × V) of the pass with that head switched the other way (the
    // passes `matters` measures), kept for the attribution's total effects.
    std::vector<lm::Matrix> flipped_logits;
    // With a period, parallel to circuits()->composition: the later head's (`to`) induction
    // score on this text with `from` switched off (and the state's heads off); empty otherwise.
    std::vector<double> without;
    // The split at the chosen character (state's at, target, against); none when there is no
    // text or the state's values do not fit it (attribution_error() says why).
    std::optional<lm::Attribution> attribution;
    std::string attribution_error;
    // edit=: on a text typed twice, the first copy's character at `position` changed to `to`;
    // the probability of `to` where the second copy predicts the matching character (the
    // prediction at position + period − 1) on the text as it is, on the edited text, and on the
    // edited text with `head` (the best induction head here, among those on) switched off too.
    struct Edit {
      int position = 0;
      std::string from, to;
      int head = -1;  // layer × heads + head
      double before = 0, after = 0, after_without = 0;
    };
    std::optional<Edit> edit;
    std::string edit_error;  // why the state's edit could not be made ("" when none is asked)
  };
  const Result& result() const { return result_; }
  // The sentence naming the state's heads that the model has not ("" when there are none), in
  // the interface's language: ablate='s, and head='s (the head opened large).
  std::string ablate_error() const;
  std::string open_head_error() const;
  // The state's head opened large (head=) as layer × heads + head; -1 when none is open or the
  // model has no such head.
  int open_head() const;
  // Changes whenever the result does (for the maps' textures), but for finish(): its passes
  // change no map.
  std::uint64_t version() const { return version_; }

  // attentionLab.experiment() in view=model (docs/contract.md): {view, tokens, maps,
  // predictions, loss, scores, ablate, head, …}, or {view, status} while loading, {view, error};
  // every number of the change (it finishes the pending passes first).
  std::string json();
  // The most likely next characters at a position, most likely first.
  struct Prediction {
    int token;
    double p;
  };
  std::vector<Prediction> top(int position, int count) const;

  // "Open in the walkthrough": head `head` (layer × heads + head) on the text read, as
  // load_request() takes it (src/model/load.h): the request of docs/contract.md with the head's
  // own Q, K and V (its projections of the residual stream, lm::head_inputs), causal (and its
  // layer's window, as a mask), at the model's scale (1/√d_k, or GPT-Neo's 1); and the options
  // naming it and labelling its rows by the tokens.
  // Empty strings when there is nothing computed.
  struct Request {
    std::string request, options;
  };
  Request walkthrough_request(int head) const;

 private:
  void compute(const State& s);
  // json()'s circuits, attribution, composition and edit.
  void circuits_json(nlohmann::json& out) const;
  // From at_, target_, against_ (and edit_), with whatever flipped passes have run.
  void compute_attribution();
  void compute_edit();

  // Takes the state's weights (files_.shown) if they are not those computed on.
  void choose_weights(const State& s);
  // json()'s weights: the file shown, the checkpoints and the one shown.
  void weights_json(nlohmann::json& out) const;

  ModelFiles files_;
  Status status_ = Status::loading;
  std::string error_, report_error_;
  const Weights* shown_ = nullptr;  // in files_: the weights computed on
  const Weights* base_ = nullptr;   // in files_: the state's model (its checkpoints' list)
  const Checkpoint* checkpoint_ = nullptr;
  std::string checkpoint_error_;
  bool checkpoint_loading_ = false;
  std::shared_ptr<const lm::LanguageModel> model_;
  std::shared_ptr<const lm::Circuits> circuits_;       // what the view shows
  std::shared_ptr<const lm::Circuits> base_circuits_;  // the weights' own (a BPE's over single letters)
  std::vector<HeadReport> report_;
  std::string text_;  // what result_ was computed from
  std::vector<std::pair<int, int>> ablate_;
  int at_ = -1;  // at, target, against and edit as result_'s attribution and edit saw them
  std::string target_, against_;
  std::optional<std::pair<int, std::string>> edit_;
  std::optional<std::pair<int, int>> open_head_;  // the state's, as update() last saw it
  bool computed_ = false;
  bool pending_ = false;  // the flipped passes of result_ are still to run
  Result result_;
  std::uint64_t version_ = 0;
  std::string json_;  // filled on the first request after a change
};

}  // namespace lab
