#include "measure.h"

#include <algorithm>
#include <stdexcept>

#include "head_scores.h"

namespace lm {
namespace {

using nlohmann::json;

// The mean loss and each head's mean previous-token score over up to kWindows windows.
struct TextScores {
  double loss = 0;
  std::vector<double> previous_token;
};

TextScores score_text(const LanguageModel& m, const std::string& text) {
  const std::vector<int> tokens = m.vocab.encode(text);
  const int n = m.context();
  const int windows = std::min<int>(kWindows, int(tokens.size()) / n);
  if (windows < 1) throw std::invalid_argument("probes: a text shorter than the context");
  TextScores s;
  s.previous_token.assign(m.head_count(), 0.0);
  for (int w = 0; w < windows; ++w) {
    const Analysis a = analyse(m, {tokens.begin() + w * n, tokens.begin() + (w + 1) * n});
    s.loss += a.mean_loss() / windows;
    for (int h = 0; h < m.head_count(); ++h) s.previous_token[h] += previous_token_score(a.maps[h]) / windows;
  }
  return s;
}

// On texts typed twice: each head's mean induction score, the copies' mean losses, and the
// second copy's mean loss with each head switched off.
struct RepeatScores {
  std::vector<double> induction, ablated_second;
  CopyLoss copy;
  double uniform_induction = 0;
};

RepeatScores score_repeats(const LanguageModel& m, const std::vector<std::string>& texts) {
  RepeatScores s;
  const int heads = m.head_count();
  s.induction.assign(heads, 0.0);
  s.ablated_second.assign(heads, 0.0);
  const double count = double(texts.size());
  for (const std::string& text : texts) {
    const std::vector<int> tokens = m.vocab.encode(typed_twice(text));
    const int period = int(m.vocab.encode(text).size()) + 1;
    if (int(tokens.size()) > m.context())
      throw std::invalid_argument("probes: \"" + text + "\" typed twice is longer than the context");
    const Analysis a = analyse(m, tokens);
    const CopyLoss c = copy_loss(a.loss, period);
    s.copy.first += c.first / count;
    s.copy.second += c.second / count;
    s.uniform_induction += induction_score(uniform_map(int(tokens.size())), period) / count;
    for (int h = 0; h < heads; ++h) {
      s.induction[h] += induction_score(a.maps[h], period) / count;
      train::HeadMask off(heads, false);
      off[h] = true;
      s.ablated_second[h] += copy_loss(analyse(m, tokens, off).loss, period).second / count;
    }
  }
  return s;
}

std::size_t best(const std::vector<double>& v) { return std::size_t(std::max_element(v.begin(), v.end()) - v.begin()); }

json copy_json(const CopyLoss& c) { return {{"first", c.first}, {"second", c.second}, {"ratio", c.second / c.first}}; }

}  // namespace

std::string typed_twice(const std::string& text) { return text + " " + text; }

json measure(const LanguageModel& m, const Probes& probes) {
  const TextScores held = score_text(m, probes.held_out), train = score_text(m, probes.train);
  const RepeatScores sentences = score_repeats(m, probes.sentences), random = score_repeats(m, probes.random);
  const int heads = m.config.heads;

  json out;
  out["loss"] = {{"train", train.loss}, {"held_out", held.loss}};
  out["copying"] = {{"sentences", copy_json(sentences.copy)}, {"random", copy_json(random.copy)}};
  out["heads"] = json::array();
  for (int h = 0; h < m.head_count(); ++h)
    out["heads"].push_back({{"layer", h / heads},
                            {"head", h % heads},
                            {"previous_token", held.previous_token[h]},
                            {"induction_sentences", sentences.induction[h]},
                            {"induction_random", random.induction[h]},
                            {"ablated_second_copy_loss", {{"sentences", sentences.ablated_second[h]},
                                                          {"random", random.ablated_second[h]}}},
                            {"label", head_label(held.previous_token[h], random.induction[h])}});
  const int n = m.context();
  out["uniform_head"] = {{"previous_token", previous_token_score(uniform_map(n))},
                         {"induction_sentences", sentences.uniform_induction},
                         {"induction_random", random.uniform_induction}};
  const std::size_t ind = best(sentences.induction), prev = best(held.previous_token);
  const double ablation_ratio = sentences.ablated_second[ind] / sentences.copy.second;
  out["targets"] = {
      {"best_induction_head", {{"layer", int(ind) / heads}, {"head", int(ind) % heads}, {"value", sentences.induction[ind]},
                               {"target", kInduction}, {"met", sentences.induction[ind] >= kInduction}}},
      {"best_previous_token_head", {{"layer", int(prev) / heads}, {"head", int(prev) % heads},
                                    {"value", held.previous_token[prev]}, {"target", kPreviousToken},
                                    {"met", held.previous_token[prev] >= kPreviousToken}}},
      {"second_copy_over_first", {{"value", sentences.copy.second / sentences.copy.first}, {"target", 0.5},
                                  {"met", sentences.copy.second <= 0.5 * sentences.copy.first}}},
      {"induction_head_ablation_ratio", {{"value", ablation_ratio}, {"target", 1.5}, {"met", ablation_ratio >= 1.5}}}};
  return out;
}

}  // namespace lm
