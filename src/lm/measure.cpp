#include "measure.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "head_scores.h"

namespace lm {
namespace {

using nlohmann::json;

// The mean loss and each head's mean previous-token score over the text's first `windows`
// whole windows (all of them where it has fewer).
struct TextScores {
  double loss = 0;
  std::vector<double> previous_token;
  int windows = 0;
};

TextScores score_text(const LanguageModel& m, const std::string& text, int windows) {
  const std::vector<int> tokens = m.vocab.encode(text);
  const int n = m.context();
  windows = std::min<int>(windows, int(tokens.size()) / n);
  if (windows < 1) throw std::invalid_argument("probes: a text shorter than the context");
  TextScores s;
  s.windows = windows;
  s.previous_token.assign(m.head_count(), 0.0);
  for (int w = 0; w < windows; ++w) {
    const Analysis a = analyse(m, {tokens.begin() + w * n, tokens.begin() + (w + 1) * n});
    s.loss += a.mean_loss() / windows;
    for (int h = 0; h < m.head_count(); ++h) s.previous_token[h] += previous_token_score(a.maps[h]) / windows;
  }
  return s;
}

// One text typed twice: the copies' mean losses, each head's induction score, and the second
// copy's mean loss with each head switched off.
struct Repeat {
  CopyLoss copy;
  std::vector<double> induction, ablated_second;
  double uniform_induction = 0;  // a head that looks evenly at every key it can see
};

Repeat score_repeat(const LanguageModel& m, const std::string& text) {
  const std::vector<int> tokens = m.vocab.encode(typed_twice(text));
  const int period = int(m.vocab.encode(text).size()) + 1;
  if (int(tokens.size()) > m.context())
    throw std::invalid_argument("probes: \"" + text + "\" typed twice is longer than the context");
  const int heads = m.head_count();
  const Analysis a = analyse(m, tokens);
  Repeat r{copy_loss(a.loss, period), {}, {}, induction_score(uniform_map(int(tokens.size())), period)};
  for (int h = 0; h < heads; ++h) {
    r.induction.push_back(induction_score(a.maps[h], period));
    train::HeadMask off(heads, false);
    off[h] = true;
    r.ablated_second.push_back(copy_loss(analyse(m, tokens, off).loss, period).second);
  }
  return r;
}

// Texts typed twice: each text's Repeat, and their means.
struct RepeatScores {
  std::vector<Repeat> each;
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
    const Repeat& r = s.each.emplace_back(score_repeat(m, text));
    s.copy.first += r.copy.first / count;
    s.copy.second += r.copy.second / count;
    s.uniform_induction += r.uniform_induction / count;
    for (int h = 0; h < heads; ++h) {
      s.induction[h] += r.induction[h] / count;
      s.ablated_second[h] += r.ablated_second[h] / count;
    }
  }
  return s;
}

std::size_t best(const std::vector<double>& v) { return std::size_t(std::max_element(v.begin(), v.end()) - v.begin()); }

json copy_json(const CopyLoss& c) { return {{"first", c.first}, {"second", c.second}, {"ratio", c.second / c.first}}; }

// The held-out sentences, read with the induction head the tuning sentences chose (`ind`):
// each sentence's copies and that head's score and ablation, each language's and all of
// them's means, and the held-out targets.
json held_out_json(const LanguageModel& m, const std::vector<HeldOutSentence>& sentences, std::size_t ind) {
  std::vector<std::string> texts;
  for (const HeldOutSentence& s : sentences) texts.push_back(s.text);
  const RepeatScores all = score_repeats(m, texts);
  json each = json::array();
  std::map<std::string, std::vector<CopyLoss>> by_language;
  double worst_ratio = 0, weakest_induction = 1;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    const Repeat& r = all.each[i];
    const double ratio = r.copy.second / r.copy.first;
    each.push_back({{"language", sentences[i].language}, {"text", sentences[i].text}, {"first", r.copy.first},
                    {"second", r.copy.second}, {"ratio", ratio}, {"induction", r.induction[ind]},
                    {"uniform_induction", r.uniform_induction}, {"ablated_second", r.ablated_second[ind]}});
    by_language[sentences[i].language].push_back(r.copy);
    worst_ratio = std::max(worst_ratio, ratio);
    weakest_induction = std::min(weakest_induction, r.induction[ind]);
  }
  json languages = json::object();
  double worst_language = 0;
  for (const auto& [language, copies] : by_language) {
    CopyLoss mean;
    for (const CopyLoss& c : copies) mean = {mean.first + c.first / copies.size(), mean.second + c.second / copies.size()};
    languages[language] = copy_json(mean);
    worst_language = std::max(worst_language, mean.second / mean.first);
  }
  const double ratio = all.copy.second / all.copy.first, ablation = all.ablated_second[ind] / all.copy.second;
  const int layer = int(ind) / m.config.heads, head = int(ind) % m.config.heads;
  return {{"sentences", each},
          {"copying", copy_json(all.copy)},
          {"languages", languages},
          {"targets",
           {{"second_copy_over_first", {{"value", ratio}, {"target", kHeldOutRatio}, {"met", ratio <= kHeldOutRatio}}},
            {"second_copy_over_first_each_language",
             {{"value", worst_language}, {"target", kHeldOutRatio}, {"met", worst_language <= kHeldOutRatio}}},
            {"second_copy_over_first_each_sentence",
             {{"value", worst_ratio}, {"target", kHeldOutEachRatio}, {"met", worst_ratio < kHeldOutEachRatio}}},
            {"induction_head_each_sentence",
             {{"layer", layer}, {"head", head}, {"value", weakest_induction}, {"target", kHeldOutInduction},
              {"met", weakest_induction >= kHeldOutInduction}}},
            {"induction_head_ablation_ratio",
             {{"layer", layer}, {"head", head}, {"value", ablation}, {"target", kHeldOutAblation},
              {"met", ablation >= kHeldOutAblation}}}}}};
}

}  // namespace

std::string typed_twice(const std::string& text) { return text + " " + text; }

json measure(const LanguageModel& m, const Probes& probes) {
  const TextScores held = score_text(m, probes.held_out, std::numeric_limits<int>::max()),
                   train = score_text(m, probes.train, kWindows);
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
  out["windows"] = {{"train", train.windows}, {"held_out", held.windows}};
  if (!probes.held_out_sentences.empty()) out["held_out_sentences"] = held_out_json(m, probes.held_out_sentences, ind);
  return out;
}

}  // namespace lm
