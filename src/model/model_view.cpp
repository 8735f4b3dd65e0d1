#include "model_view.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "head_scores.h"
#include "i18n.h"
#include "weights_file.h"

namespace lab {

namespace {

using Json = nlohmann::json;

// report.json's "heads", in the model's order (layer by layer); throws on a report that does
// not describe this model.
std::vector<ModelView::HeadReport> read_report(const std::string& text, const lm::LanguageModel& m) {
  const Json r = Json::parse(text);
  std::vector<ModelView::HeadReport> heads(std::size_t(m.head_count()));
  std::vector<bool> seen(heads.size(), false);
  for (const Json& h : r.at("heads")) {
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

// The period of a text typed twice with a space between, t + " " + t (what "Repeat my text"
// makes): its length + 1; 0 for any other text.
int repeat_period(const std::vector<int>& tokens, int space) {
  const int n = int(tokens.size());
  if (n < 3 || n % 2 == 0) return 0;
  const int half = n / 2;
  if (tokens[std::size_t(half)] != space) return 0;
  return std::equal(tokens.begin(), tokens.begin() + half, tokens.begin() + half + 1) ? half + 1 : 0;
}

Json matrix_rows(const attn::Matrix& m) {
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(std::vector<float>(m.row(i).data(), m.row(i).data() + m.cols()));
  return rows;
}

}  // namespace

void ModelView::deliver(const std::string& weights, const std::string& report, const std::string& error,
                        const State& s) {
  model_.reset();
  report_.clear();
  report_error_.clear();
  error_ = error;
  if (error_.empty()) {
    try {
      model_ = std::make_shared<const lm::LanguageModel>(lm::parse(weights, "model/tiny-lm.bin"));
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  status_ = model_ ? Status::ready : Status::failed;
  if (model_) {
    try {
      report_ = read_report(report, *model_);
    } catch (const std::exception& e) {
      report_error_ = std::string("model/report.json: ") + e.what();
    }
  }
  computed_ = false;
  update(s);
}

void ModelView::update(const State& s) {
  if (s.open_head != open_head_) {
    open_head_ = s.open_head;
    json_.clear();
  }
  if (!model_) {
    if (computed_ || !json_.empty()) ++version_;
    computed_ = false;
    result_ = {};
    json_.clear();
    return;
  }
  if (computed_ && s.text == text_ && s.ablate == ablate_) return;
  compute(s);
}

void ModelView::compute(const State& s) {
  const lm::LanguageModel& m = *model_;
  text_ = s.text;
  ablate_ = s.ablate;
  computed_ = true;
  ++version_;
  json_.clear();
  result_ = {};
  Result& r = result_;
  std::vector<int> tokens = m.vocab.encode(s.text);
  r.characters = int(tokens.size());
  if (int(tokens.size()) > m.context()) tokens.resize(std::size_t(m.context()));
  for (const int t : tokens) {
    r.tokens.push_back(m.vocab.text(t));
    r.unknown += t == lm::Vocabulary::kUnknown;
  }
  for (const auto& [layer, head] : s.ablate)
    (layer < m.config.layers && head < m.config.heads ? r.ablate : r.unknown_heads).emplace_back(layer, head);
  if (tokens.empty()) return;
  const train::HeadMask off = lm::head_mask(m, r.ablate);
  r.analysis = lm::analyse(m, tokens, off);
  // How much each head matters here: the same text with that one head switched the other way.
  const double as_set = r.analysis.mean_loss();
  for (int h = 0; h < m.head_count(); ++h) {
    train::HeadMask flipped = off;
    flipped[std::size_t(h)] = !flipped[std::size_t(h)];
    const double other = lm::analyse(m, tokens, flipped).mean_loss();
    r.matters.push_back(off[std::size_t(h)] ? as_set - other : other - as_set);
  }
  r.period = repeat_period(tokens, m.vocab.encode(" ").front());
  if (r.period && int(tokens.size()) >= r.period + 2) r.copy = lm::copy_loss(r.analysis.loss, r.period);
  for (const attn::Matrix& map : r.analysis.maps) {
    r.previous_token.push_back(map.rows() > 1 ? lm::previous_token_score(map) : 0.0);
    if (r.period) r.induction.push_back(lm::induction_score(map, r.period));
  }
}

namespace {
// "ablate=4.0 names no head of the model: …": `key`'s heads that `m` has not, or "".
std::string no_such_heads(const lm::LanguageModel* m, const char* key, const std::vector<std::pair<int, int>>& unknown) {
  if (!m || unknown.empty()) return "";
  const train::Config& c = m->config;
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

ModelView::Request ModelView::walkthrough_request(int head) const {
  if (!model_ || result_.tokens.empty() || head < 0 || head >= model_->head_count()) return {};
  const lm::LanguageModel& m = *model_;
  const int layer = head / m.config.heads, h = head % m.config.heads;
  const lm::HeadInputs in = lm::head_inputs(m, result_.analysis.tokens, layer, h, lm::head_mask(m, result_.ablate));
  const Json request{{"q", matrix_rows(in.q)}, {"k", matrix_rows(in.k)}, {"v", matrix_rows(in.v)}, {"causal", true}};
  const std::string name = "head " + std::to_string(layer) + "." + std::to_string(h) + " of the trained model";
  // A link cannot carry the data (load.h): the view's own link is what reproduces it.
  const Json options{{"tokens", {{"queries", result_.tokens}, {"keys", result_.tokens}}}, {"name", name}, {"link", false}};
  return {request.dump(), options.dump()};
}

std::string ModelView::json() const {
  if (!json_.empty()) return json_;
  Json out{{"view", "model"}};
  if (status_ != Status::ready) {
    if (status_ == Status::failed) out["error"] = error_;
    else out["status"] = "loading";
    return json_ = out.dump();
  }
  const lm::LanguageModel& m = *model_;
  const Result& r = result_;
  out["model"] = {{"layers", m.config.layers}, {"heads", m.config.heads}, {"context", m.context()}};
  out["text"] = text_;
  out["characters"] = r.characters;
  out["unknown"] = r.unknown;
  out["tokens"] = r.tokens;
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
  return json_ = out.dump();
}

}  // namespace lab
