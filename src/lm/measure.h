// The report's measurements of a model (docs/model.md, "Its heads"): its loss on the corpus
// and on held-out text, and every head's scores (head_scores.h) on documented probe text.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "language_model.h"

namespace lm {

struct Probes {
  std::vector<std::string> sentences;  // ordinary sentences not in the corpus, each typed twice
  std::vector<std::string> random;     // random letter strings, each typed twice
  std::string held_out;                // ordinary text the model never trained on
  std::string train;                   // the training corpus (its first windows are scored)
};

// How many windows of the context's length the losses and the previous-token score average
// over (fewer where the text is shorter).
inline constexpr int kWindows = 32;

// A text typed twice: `text`, a space, `text` again; its period is its length plus one.
std::string typed_twice(const std::string& text);

// Everything the report measures, as JSON (docs/model.md lists the fields). Throws
// std::invalid_argument when a probe does not fit the context twice over.
nlohmann::json measure(const LanguageModel& m, const Probes& probes);

}  // namespace lm
