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
  // The residual stream's parts (lm/circuits.h): at the end, row i of embedding + Σ outputs
  // is what the logits read. embedding: n × d_model, E[tokens[i]] (and the positions, for a
  // model that adds them to the residual stream); outputs, index layer * heads + head:
  // n × d_model, what the head adds (zero when it is switched off).
  Matrix embedding;
  std::vector<Matrix> outputs;
  double mean_loss() const;
};

// Throws std::invalid_argument when the text is empty or longer than the context, or a
// token is outside the vocabulary.
Analysis analyse(const LanguageModel& m, const std::vector<int>& tokens, const train::HeadMask& ablated = {});

// One head's queries, keys and values on a text (n × d_k each, row i the character i's): its
// projections of the residual stream entering its layer, the positions added to the queries'
// and keys' input, as analyse() computes them (with the same heads switched off). Its map is
// softmax(q kᵀ / √d_k) under the causal mask. Throws as analyse() does, and on a head the
// model does not have.
struct HeadInputs {
  Matrix q, k, v;
};
HeadInputs head_inputs(const LanguageModel& m, const std::vector<int>& tokens, int layer, int head,
                       const train::HeadMask& ablated = {});

// The mask switching off the heads listed as (layer, head).
train::HeadMask head_mask(const LanguageModel& m, const std::vector<std::pair<int, int>>& heads);

}  // namespace lm
