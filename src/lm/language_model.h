// The tiny language model (docs/model.md): train::Transformer's attention-only transformer,
// causal, over a Vocabulary of characters, with its parameters. analyse() runs it on one
// text and keeps what a reader looks at: every head's map, the next-character
// probabilities and the loss at every position, with any heads switched off.
#pragma once

#include <string>
#include <vector>

#include "transformer.h"
#include "vocabulary.h"

namespace lm {

using train::Matrix;

struct LanguageModel {
  train::Config config;  // config.seq is the context: the longest text the model reads
  Vocabulary vocab;
  train::Params params;

  int context() const { return config.seq; }
  int head_count() const { return config.layers * config.heads; }
  long parameter_count() const;
};

// The language model's configuration: layers × heads, d_model (d_k = d_model / heads), the
// context, learned positions added to Q and K only, a causal mask.
train::Config model_config(int layers, int heads, int d_model, int context, int vocab, std::uint32_t seed);

struct Analysis {
  std::vector<int> tokens;
  std::vector<Matrix> maps;   // index layer * heads + head; n × n, row i over keys j ≤ i
  Matrix logits;              // n × vocab: the prediction of the token after position i
  Matrix probs;               // softmax of the logits, in double precision then rounded
  std::vector<double> loss;   // n − 1: loss[i] = −log p(tokens[i + 1]) at position i
  double mean_loss() const;
};

// Throws std::invalid_argument when the text is empty or longer than the context, or a
// token is outside the vocabulary.
Analysis analyse(const LanguageModel& m, const std::vector<int>& tokens, const train::HeadMask& ablated = {});

// The mask switching off the heads listed as (layer, head).
train::HeadMask head_mask(const LanguageModel& m, const std::vector<std::pair<int, int>>& heads);

}  // namespace lm
