// The report's measurements of a model (docs/model.md, "Its heads"): its loss on the corpus
// and on held-out text, and every head's scores (head_scores.h) on documented probe text.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "language_model.h"

namespace lm {

// A held-out sentence and its language ("en" or "es").
struct HeldOutSentence {
  std::string language, text;
};

struct Probes {
  // Ordinary sentences not in the corpus, each typed twice: the tuning set, on which runs are
  // compared and settings chosen.
  std::vector<std::string> sentences;
  // More such sentences, in English and Spanish, that no choice looked at: read for the report.
  std::vector<HeldOutSentence> held_out_sentences;
  std::vector<std::string> random;  // random letter strings, each typed twice
  std::string held_out;             // ordinary text the model never trained on (scored whole)
  std::string train;                // the training corpus (its first kWindows windows are scored)
};

// How many windows of the context's length the training corpus's loss averages over.
inline constexpr int kWindows = 32;

// The held-out sentences' targets (docs/model.md): the second copy's mean loss over the
// first's, on average and on each sentence; the best induction head's score on each; the rise
// of the second copy's loss with that head off.
inline constexpr double kHeldOutRatio = 0.4, kHeldOutEachRatio = 0.5, kHeldOutInduction = 0.45,
                        kHeldOutAblation = 2.0;

// A text typed twice: `text`, a space, `text` again; its period is its length plus one.
std::string typed_twice(const std::string& text);

// Everything the report measures, as JSON (docs/model.md lists the fields). Throws
// std::invalid_argument when a probe does not fit the context twice over.
nlohmann::json measure(const LanguageModel& m, const Probes& probes);

}  // namespace lm
