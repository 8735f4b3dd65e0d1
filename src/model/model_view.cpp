#include "model_view.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "head_scores.h"
#include "i18n.h"
#include "lab_file.h"

namespace lab {

namespace {

using Json = nlohmann::json;

// The period of a text typed twice with a space between, t + " " + t (what "Repeat my text"
// makes), in tokens: the second copy's (a character model's space and t; a BPE's " t", whose
// space joins its first word); 0 for any other text, or where the copies' tokens differ past
// the second copy's first.
int repeat_period(const lm::LanguageModel& m, const std::string& text, const std::vector<int>& tokens) {
  if (text.size() < 3 || text.size() % 2 == 0 || text[text.size() / 2] != ' ') return 0;
  const std::string t = text.substr(0, text.size() / 2);
  if (text.compare(t.size() + 1, t.size(), t) != 0) return 0;
  const std::vector<int> first = m.vocab.encode(t);
  const int n = int(tokens.size()), period = n - int(first.size());
  if (period < 2 || period > n - 1 || !std::equal(first.begin(), first.end(), tokens.begin())) return 0;
  for (int i = n - period + 1; i < n; ++i)
    if (tokens[std::size_t(i)] != tokens[std::size_t(i - period)]) return 0;
  return period;
}

// A BPE model's circuits are over the text's own tokens (its vocabulary is too large for a map
// of every token): the first kTextTokens distinct ones, in order.
constexpr int kTextTokens = 40;
std::vector<int> distinct(const std::vector<int>& tokens) {
  std::vector<int> out;
  for (const int t : tokens)
    if (int(out.size()) < kTextTokens && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

Json matrix_rows(const attn::Matrix& m) {
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(std::vector<float>(m.row(i).data(), m.row(i).data() + m.cols()));
  return rows;
}

}  // namespace

nlohmann::ordered_json model_json(const lm::LanguageModel& m) {
  return {{"name", m.name},
          {"format", m.format},
          {"architecture", m.family},
          {"layers", m.config.layers},
          {"heads", m.config.heads},
          {"d_model", m.config.d_model},
          {"context", m.context()},
          {"vocabulary", m.config.vocab},
          {"tokenizer", m.vocab.kind()},
          {"parameters", m.parameter_count()}};
}

const lm::LanguageModel& ModelView::open(const std::vector<lm::ModelFile>& files) { return files_.open(files); }

void ModelView::deliver(const std::string& name, const std::string& weights, const std::string& report,
                        const std::string& error, const State& s) {
  files_.deliver(name, weights, report, error);
  update(s);
}

void ModelView::choose_weights(const State& s) {
  const Weights* base = files_.model(s);
  const Checkpoint* checkpoint = files_.checkpoint(s);
  std::string checkpoint_error = files_.checkpoint_error(s);
  const bool checkpoint_loading = files_.checkpoint_loading(s);
  if (base != base_ || checkpoint != checkpoint_ || checkpoint_error != checkpoint_error_ ||
      checkpoint_loading != checkpoint_loading_) {
    ++version_;
    json_.clear();
  }
  base_ = base;
  checkpoint_ = checkpoint;
  checkpoint_error_ = std::move(checkpoint_error);
  checkpoint_loading_ = checkpoint_loading;
  // A checkpoint on its way is awaited as the model is: nothing computed meanwhile, so that no
  // number of other weights stands in for it.
  status_ = !base || checkpoint_loading_ ? Status::loading : base->model ? Status::ready : Status::failed;
  error_ = base ? base->error : "";
  report_error_ = base ? base->report_error : "";
  const Weights* shown = checkpoint_loading_ ? nullptr : files_.shown(s);
  // A checkpoint's heads are scored in its model's report.
  const std::vector<HeadReport>& heads = shown && checkpoint_ && checkpoint_->weights == shown->name ? checkpoint_->heads
                                         : shown ? shown->heads
                                                 : std::vector<HeadReport>{};
  if (shown == shown_ && heads.size() == report_.size()) return;
  shown_ = shown;
  model_ = shown ? shown->model : nullptr;
  base_circuits_ = shown ? files_.circuits(*shown) : nullptr;
  circuits_ = base_circuits_;  // a BPE model's: over the text's tokens, in compute()
  report_ = heads;
  computed_ = false;
}

void ModelView::update(const State& s) {
  choose_weights(s);
  if (s.open_head != open_head_) {
    open_head_ = s.open_head;
    json_.clear();
  }
  if (!model_) {
    if (computed_ || !json_.empty()) ++version_;
    computed_ = false;
    pending_ = false;
    result_ = {};
    json_.clear();
    return;
  }
  if (!computed_ || s.text != text_ || s.ablate != ablate_) return compute(s);
  if (s.at != at_ || s.target != target_ || s.against != against_) {
    at_ = s.at;
    target_ = s.target;
    against_ = s.against;
    compute_attribution();
    ++version_;
    json_.clear();
  }
  if (s.edit != edit_) {
    edit_ = s.edit;
    compute_edit();
    ++version_;
    json_.clear();
  }
}

void ModelView::compute(const State& s) {
  const lm::LanguageModel& m = *model_;
  text_ = s.text;
  ablate_ = s.ablate;
  at_ = s.at;
  target_ = s.target;
  against_ = s.against;
  edit_ = s.edit;
  computed_ = true;
  pending_ = false;
  ++version_;
  json_.clear();
  result_ = {};
  Result& r = result_;
  std::vector<int> tokens = m.vocab.encode(s.text);
  r.characters = int(tokens.size());
  if (int(tokens.size()) > m.context()) tokens.resize(std::size_t(m.context()));
  r.tokens = m.vocab.pieces(tokens);
  if (const lm::Vocabulary* chars = m.vocab.characters(); chars && chars->has_unknown_token())
    for (const int t : tokens) r.unknown += t == lm::Vocabulary::kUnknown;
  else if (chars)  // left out of the tokens
    r.unknown = int(lm::decode_utf8(s.text).size()) - r.characters;
  for (const auto& [layer, head] : s.ablate)
    (layer < m.config.layers && head < m.config.heads ? r.ablate : r.unknown_heads).emplace_back(layer, head);
  if (tokens.empty()) return;
  r.analysis = lm::analyse(m, tokens, lm::head_mask(m, r.ablate));
  if (m.vocab.bpe()) circuits_ = std::make_shared<const lm::Circuits>(lm::circuits(m, distinct(tokens), base_circuits_.get()));
  r.period = int(tokens.size()) == r.characters ? repeat_period(m, s.text, tokens) : 0;
  if (r.period && int(tokens.size()) >= r.period + 2) r.copy = lm::copy_loss(r.analysis.loss, r.period);
  for (const attn::Matrix& map : r.analysis.maps) {
    r.previous_token.push_back(map.rows() > 1 ? lm::previous_token_score(map) : 0.0);
    if (r.period) r.induction.push_back(lm::induction_score(map, r.period));
  }
  compute_attribution();  // its direct parts; the totals come with the flipped passes
  compute_edit();
  pending_ = true;
}

void ModelView::finish() {
  if (!pending_) return;
  pending_ = false;
  const lm::LanguageModel& m = *model_;
  Result& r = result_;
  const train::HeadMask off = lm::head_mask(m, r.ablate);
  // How much each head matters here: the same text with that one head switched the other way.
  const double as_set = r.analysis.mean_loss();
  // With a period: every head's induction score with head `h` off (index h × heads' count + g).
  std::vector<double> induction_without;
  for (int h = 0; h < m.head_count(); ++h) {
    lm::Analysis other = lm::analyse_flipped(m, r.analysis, off, h);  // reruns only the layers after h's
    r.matters.push_back(off[std::size_t(h)] ? as_set - other.mean_loss() : other.mean_loss() - as_set);
    const lm::Analysis& h_off = off[std::size_t(h)] ? r.analysis : other;
    for (const attn::Matrix& map : h_off.maps)
      if (r.period) induction_without.push_back(lm::induction_score(map, r.period));
    r.flipped_logits.push_back(std::move(other.logits));
  }
  if (r.period)
    for (const lm::Composition& c : circuits_->composition)
      r.without.push_back(induction_without[std::size_t(c.from * m.head_count() + c.to)]);
  compute_attribution();
  json_.clear();  // the version stays: the maps' textures are the same
}

namespace {
// The model's token for a character of the state (target, against, edit's), or why not.
int token_of(const lm::LanguageModel& m, const char* key, const std::string& character) {
  const std::vector<int> t = m.vocab.encode(character);
  const lm::Vocabulary* chars = m.vocab.characters();
  const bool unknown = chars && chars->has_unknown_token() && t.size() == 1 && t[0] == lm::Vocabulary::kUnknown &&
                       character != lm::Vocabulary::kUnknownText;
  if (t.size() != 1 || unknown)
    throw std::invalid_argument(i18n::format(tr("%s=%s is not one of the model's characters"), key, character.c_str()));
  return t[0];
}
}  // namespace

void ModelView::compute_attribution() {
  Result& r = result_;
  r.attribution.reset();
  r.attribution_error.clear();
  const lm::Analysis& a = r.analysis;
  const int n = int(a.tokens.size());
  if (n == 0) return;
  try {
    if (at_ >= n)
      throw std::invalid_argument(i18n::format(tr("at=%d is past the text read: its characters are 0 to %d"), at_, n - 1));
    const int at = at_ < 0 ? n - 1 : at_;
    // The character that comes next in the text, or after the last one the model's first choice.
    int target = 0;
    if (!target_.empty()) target = token_of(*model_, "target", target_);
    else if (at + 1 < n) target = a.tokens[std::size_t(at + 1)];
    else a.logits.row(at).maxCoeff(&target);
    const int against = against_.empty() ? -1 : token_of(*model_, "against", against_);
    if (against == target)
      throw std::invalid_argument(i18n::format(tr("against=%s is the character whose logit is split"),
                                               model_->vocab.text(target).c_str()));
    r.attribution = lm::attribute(*model_, a, lm::head_mask(*model_, r.ablate), r.flipped_logits, at, target, against);
  } catch (const std::invalid_argument& e) {
    r.attribution_error = e.what();
  }
}

void ModelView::compute_edit() {
  Result& r = result_;
  r.edit.reset();
  r.edit_error.clear();
  if (!edit_ || r.analysis.tokens.empty()) return;
  const lm::LanguageModel& m = *model_;
  const auto& [position, character] = *edit_;
  try {
    if (!r.period)
      throw std::invalid_argument(tr("edit= changes a letter of a text typed twice: this text is not (Repeat my text)"));
    if (position > r.period - 2)
      throw std::invalid_argument(i18n::format(tr("edit=%d:%s: the first copy's characters are 0 to %d"), position,
                                               character.c_str(), r.period - 2));
    Result::Edit e;
    e.position = position;
    e.from = r.tokens[std::size_t(position)];
    e.to = character;
    const int to = token_of(m, "edit", character);
    // The copying head: the best induction head on this text among those on.
    const train::HeadMask off = lm::head_mask(m, r.ablate);
    for (int h = 0; h < m.head_count(); ++h)
      if (!off[std::size_t(h)] && (e.head < 0 || r.induction[std::size_t(h)] > r.induction[std::size_t(e.head)]))
        e.head = h;
    if (e.head < 0) throw std::invalid_argument(tr("edit=: every head is switched off"));
    // The second copy predicts its character `position` at position + period − 1.
    const int at = position + r.period - 1;
    std::vector<int> edited = r.analysis.tokens;
    edited[std::size_t(position)] = to;
    train::HeadMask without = off;
    without[std::size_t(e.head)] = true;
    e.before = double(r.analysis.probs(at, to));
    e.after = double(lm::analyse(m, edited, off).probs(at, to));
    e.after_without = double(lm::analyse(m, edited, without).probs(at, to));
    r.edit = e;
  } catch (const std::invalid_argument& e) {
    r.edit_error = e.what();
  }
}

namespace {
// "ablate=4.0 names no head of the model: …": `key`'s heads that `m` has not, or "".
std::string no_such_heads(const lm::LanguageModel* m, const char* key, const std::vector<std::pair<int, int>>& unknown) {
  if (!m || unknown.empty()) return "";
  const lm::Architecture& c = m->config;
  std::string heads;
  for (const auto& [layer, head] : unknown)
    heads += (heads.empty() ? "" : ",") + std::to_string(layer) + "." + std::to_string(head);
  return i18n::format(tr("%s=%s names no head of the model: it has %d layers of %d heads (0.0 to %d.%d)"), key,
                      heads.c_str(), c.layers, c.heads, c.layers - 1, c.heads - 1);
}
}  // namespace

std::string ModelView::ablate_error() const { return no_such_heads(model_.get(), "ablate", result_.unknown_heads); }

std::string ModelView::open_head_error() const {
  return open_head_ && open_head() < 0 ? no_such_heads(model_.get(), "head", {*open_head_}) : "";
}

int ModelView::open_head() const {
  if (!model_ || !open_head_) return -1;
  const auto [layer, head] = *open_head_;
  return layer < model_->config.layers && head < model_->config.heads ? layer * model_->config.heads + head : -1;
}

std::vector<ModelView::Prediction> ModelView::top(int position, int count) const {
  const attn::Matrix& probs = result_.analysis.probs;
  if (position < 0 || position >= probs.rows()) return {};
  std::vector<Prediction> all;
  for (int v = 0; v < probs.cols(); ++v) all.push_back({v, double(probs(position, v))});
  count = std::min(count, int(all.size()));
  std::partial_sort(all.begin(), all.begin() + count, all.end(),
                    [](const Prediction& a, const Prediction& b) { return a.p > b.p; });
  all.resize(std::size_t(count));
  return all;
}

namespace {
std::string head_name(const lm::LanguageModel& m, int index) {
  return std::to_string(index / m.config.heads) + "." + std::to_string(index % m.config.heads);
}
}  // namespace

ModelView::Request ModelView::walkthrough_request(int head) const {
  if (!model_ || result_.tokens.empty() || head < 0 || head >= model_->head_count()) return {};
  const lm::LanguageModel& m = *model_;
  const lm::HeadInputs in = lm::head_inputs(m, result_.analysis.tokens, head / m.config.heads, head % m.config.heads,
                                            lm::head_mask(m, result_.ablate));
  Json request{{"q", matrix_rows(in.q)}, {"k", matrix_rows(in.k)}, {"v", matrix_rows(in.v)}, {"causal", true}};
  // The model's own scale where it is not the contract's 1/√d_k (GPT-Neo scales nothing).
  if (std::fabs(m.config.score_scale - 1 / std::sqrt(float(m.config.d_k))) > 1e-7f) request["scale"] = m.config.score_scale;
  // A local layer's window (GPT-Neo's) as a boolean mask beside the causal one.
  const int layer = head / m.config.heads, n = int(in.q.rows());
  if (const int w = m.config.window(layer); w > 0 && w < n) {
    Json mask = Json::array();
    for (int i = 0; i < n; ++i) {
      std::vector<bool> row;
      for (int j = 0; j < n; ++j) row.push_back(m.config.sees(layer, i, j));
      mask.push_back(row);
    }
    request["mask"] = mask;
  }
  const std::string name = m.family == "lab" ? i18n::format(tr("head %s of the trained model"), head_name(m, head).c_str())
                                             : i18n::format(tr("head %s of %s"), head_name(m, head).c_str(), m.name.c_str());
  // A link cannot carry the data (load.h): the view's own link is what reproduces it.
  const Json options{{"tokens", {{"queries", result_.tokens}, {"keys", result_.tokens}}}, {"name", name}, {"link", false}};
  return {request.dump(), options.dump()};
}

namespace {
Json optional_number(const std::vector<double>& values, std::size_t i) {
  return i < values.size() ? Json(values[i]) : Json(nullptr);
}
}  // namespace

void ModelView::circuits_json(Json& out) const {
  const lm::LanguageModel& m = *model_;
  const lm::Circuits& c = *circuits_;
  const Result& r = result_;
  Json chars = Json::array();
  for (const int t : c.readable) chars.push_back(m.vocab.text(t));
  Json heads = Json::array();
  for (const lm::HeadCircuit& h : c.heads)
    heads.push_back({{"layer", h.layer},
                     {"head", h.head},
                     {"copying", h.copying},
                     {"ov", {{"chars", chars}, {"map", matrix_rows(h.ov)}}},
                     {"qk", {{"chars", chars}, {"map", matrix_rows(h.qk)}, {"positions", h.positions}}}});
  out["heads"] = heads;
  Json composition = Json::array();
  for (std::size_t i = 0; i < c.composition.size(); ++i) {
    const lm::Composition& k = c.composition[i];
    composition.push_back({{"from", head_name(m, k.from)}, {"to", head_name(m, k.to)}, {"share", k.share},
                           {"frobenius", k.frobenius},
                           {"score", r.period ? Json(r.induction[std::size_t(k.to)]) : Json(nullptr)},
                           {"without", optional_number(r.without, i)}});
  }
  out["composition"] = composition;
  out["frobenius_random"] = c.frobenius_random;
  if (r.attribution) {
    const lm::Attribution& a = *r.attribution;
    // experiment()'s names of the parts (docs/your-model.md).
    Json parts = Json::array();
    for (const lm::AttributionPart& p : lm::ordered_parts(m, a)) {
      using Kind = lm::AttributionPart::Kind;
      const std::string layer = std::to_string(p.layer);
      const std::string name = p.kind == Kind::embedding        ? "embedding"
                               : p.kind == Kind::head           ? head_name(m, p.head)
                               : p.kind == Kind::attention_bias ? layer + ".attn_bias"
                               : p.kind == Kind::mlp            ? layer + ".mlp"
                               : p.kind == Kind::final_bias     ? "final_ln_bias"
                                                                : "unembed_bias";
      parts.push_back({{"part", name}, {"direct", p.direct}, {"total", std::isnan(p.total) ? Json(nullptr) : Json(p.total)}});
    }
    const double sum = a.sum();
    out["attribution"] = {{"position", a.position}, {"target", m.vocab.text(a.target)},
                          {"against", a.against >= 0 ? Json(m.vocab.text(a.against)) : Json(nullptr)},
                          {"value", a.value}, {"sum", sum}, {"parts", parts}};
  } else {
    out["attribution"] = nullptr;
  }
  if (!r.attribution_error.empty()) out["attribution_error"] = r.attribution_error;
  if (r.edit) {
    const Result::Edit& e = *r.edit;
    out["edit"] = {{"position", e.position}, {"from", e.from}, {"to", e.to}, {"head", head_name(m, e.head)},
                   {"before", e.before}, {"after", e.after}, {"after_without", e.after_without}};
  } else {
    out["edit"] = nullptr;
  }
  if (!r.edit_error.empty()) out["edit_error"] = r.edit_error;
}

void ModelView::weights_json(Json& out) const {
  Json steps = Json::array();
  for (const Checkpoint& c : base_->checkpoints) steps.push_back(c.step);
  Json w{{"file", shown_->name}, {"checkpoints", steps}};
  if (checkpoint_)
    w["checkpoint"] = {{"step", checkpoint_->step},
                       {"loading", checkpoint_loading_},
                       {"held_out_loss", checkpoint_->held_out_loss},
                       {"copy_ratio_sentences", checkpoint_->copy_sentences},
                       {"copy_ratio_random", checkpoint_->copy_random}};
  if (!checkpoint_error_.empty()) w["checkpoint_error"] = checkpoint_error_;
  out["weights"] = w;
}

std::string ModelView::json() {
  finish();
  if (!json_.empty()) return json_;
  Json out{{"view", "model"}};
  if (status_ != Status::ready) {
    if (status_ == Status::failed) out["error"] = error_;
    else out["status"] = "loading";
    return json_ = out.dump();
  }
  weights_json(out);
  const lm::LanguageModel& m = *model_;
  const Result& r = result_;
  out["model"] = model_json(m);
  out["model"]["uniform_loss"] = std::log(double(m.config.vocab));
  out["text"] = text_;
  out["characters"] = r.characters;
  out["unknown"] = r.unknown;
  out["tokens"] = r.tokens;
  out["token_ids"] = r.analysis.tokens;
  Json maps = Json::array();
  for (int layer = 0; layer < m.config.layers; ++layer) {
    Json heads = Json::array();
    for (int h = 0; h < m.config.heads && !r.analysis.maps.empty(); ++h)
      heads.push_back(matrix_rows(r.analysis.maps[std::size_t(layer * m.config.heads + h)]));
    maps.push_back(heads);
  }
  out["maps"] = maps;
  Json predictions = Json::array(), loss = Json::array();
  for (int i = 0; i < int(r.tokens.size()); ++i) {
    Json row = Json::array();
    for (const Prediction& p : top(i, 5)) row.push_back({{"token", m.vocab.text(p.token)}, {"p", p.p}});
    predictions.push_back(row);
    loss.push_back(i < int(r.analysis.loss.size()) ? Json(r.analysis.loss[std::size_t(i)]) : Json(nullptr));
  }
  out["predictions"] = predictions;
  out["loss"] = loss;
  out["mean_loss"] = r.analysis.loss.empty() ? Json(nullptr) : Json(r.analysis.mean_loss());
  Json scores = Json::array();
  for (int i = 0; i < m.head_count(); ++i) {
    Json score{{"layer", i / m.config.heads}, {"head", i % m.config.heads}};
    if (!report_.empty()) {
      const HeadReport& h = report_[std::size_t(i)];
      score.update({{"previous_token", h.previous_token}, {"induction", h.induction_random},
                    {"induction_sentences", h.induction_sentences}, {"label", h.label}});
    }
    if (!r.matters.empty()) {
      score["matters"] = r.matters[std::size_t(i)];
      score["previous_token_here"] = r.previous_token[std::size_t(i)];
      if (r.period) score["induction_here"] = r.induction[std::size_t(i)];
    }
    scores.push_back(score);
  }
  out["scores"] = scores;
  out["period"] = r.period;
  if (r.copy) out["copy_loss"] = {{"first", r.copy->first}, {"second", r.copy->second}};
  const auto pairs = [](const std::vector<std::pair<int, int>>& heads) {
    Json list = Json::array();
    for (const auto& [layer, head] : heads) list.push_back({layer, head});
    return list;
  };
  out["ablate"] = pairs(r.ablate);
  out["head"] = open_head() >= 0 ? Json{open_head_->first, open_head_->second} : Json(nullptr);
  if (open_head_ && open_head() < 0) out["unknown_head"] = Json{open_head_->first, open_head_->second};
  if (!r.unknown_heads.empty()) out["unknown_heads"] = pairs(r.unknown_heads);
  if (!report_error_.empty()) out["report_error"] = report_error_;
  circuits_json(out);
  return json_ = out.dump();
}

}  // namespace lab
