// A language model the lab reads (docs/model.md, docs/your-model.md): a decoder-only
// transformer (decoder.h) with its tokenizer. analyse() runs it on one text and keeps what a
// reader looks at: every head's map, the next token's probabilities and the loss at every
// position, and the residual stream's parts, with any heads switched off.
#pragma once

#include <string>
#include <vector>

#include "decoder.h"
#include "tokenizer.h"
#include "transformer.h"  // train::Config, train::Params, train::HeadMask: the lab's model as trained

namespace lm {

using train::HeadMask;

struct LanguageModel {
  Architecture config;
  Tokenizer vocab;
  Weights params;
  // Where it came from: its name (a file's or the config's), the format read ("lab",
  // "safetensors", "llm.c") and the architecture's family ("lab", "gpt2", "gpt_neo").
  std::string name, format = "lab", family = "lab";

  int context() const { return config.context; }
  int head_count() const { return config.layers * config.heads; }
  long parameter_count() const;
};

// The lab's model's training configuration: layers × heads, d_model (d_k = d_model / heads),
// the context, learned positions added to Q and K only, a causal mask.
train::Config model_config(int layers, int heads, int d_model, int context, int vocab, std::uint32_t seed);
// The lab's model as trained (train::Transformer's parameters), as the one transformer runs
// it: no layer norm, no MLP, no bias, positions into the queries and keys, its own unembedding.
LanguageModel lab_model(const Vocabulary& vocab, const train::Config& c, const train::Params& p);

struct Analysis {
  std::vector<int> tokens;
  std::vector<Matrix> maps;   // index layer * heads + head; n × n, row i over keys j ≤ i
  Matrix logits;              // n × vocab: the prediction of the token after position i
  Matrix probs;               // softmax of the logits, in double precision then rounded
  std::vector<double> loss;   // n − 1: loss[i] = −log p(tokens[i + 1]) at position i
  // The residual stream's parts (lm/circuits.h): the final residual x is embedding + Σ outputs
  // + Σ attention biases + Σ mlp. embedding: n × d_model, E[tokens[i]] (and the positions, for
  // a model that adds them to the residual stream); outputs, index layer * heads + head:
  // n × d_model, what the head adds (zero when it is switched off); attention_bias, per layer:
  // b_O (1 × d_model, added at every position; empty without); mlp, per layer: n × d_model
  // (empty without MLPs).
  Matrix embedding;
  std::vector<Matrix> outputs;
  std::vector<RowVector> attention_bias;
  std::vector<Matrix> mlp;
  // The final LayerNorm's 1 / √(var + ε) at each position (1 without a final norm): the scale
  // the attribution holds fixed.
  Eigen::VectorXf final_scale;
  double mean_loss() const;
};

// Throws std::invalid_argument when the text is empty or longer than the context, or a
// token is outside the vocabulary.
Analysis analyse(const LanguageModel& m, const std::vector<int>& tokens, const HeadMask& ablated = {});

// analyse(m, as_set.tokens, off with `head` switched the other way), from as_set =
// analyse(m, tokens, off): the layers before the head's and the rest of its own attention are
// as_set's (its output taken out, or put in), so only what follows runs again (its layer's MLP
// and the later layers). Equal to the full pass up to float rounding. Throws on a head the
// model does not have.
Analysis analyse_flipped(const LanguageModel& m, const Analysis& as_set, const HeadMask& off, int head);

// One head's queries, keys and values on a text (n × d_k each, row i the token i's): its
// projections of the residual stream entering its layer (after its LayerNorm, with its
// biases, the positions added to the queries' and keys' input where the model does so), as
// analyse() computes them (with the same heads switched off). Its map is
// softmax(scale · q kᵀ) under the causal mask (and its layer's window). Throws as analyse()
// does, and on a head the model does not have.
struct HeadInputs {
  Matrix q, k, v;
};
HeadInputs head_inputs(const LanguageModel& m, const std::vector<int>& tokens, int layer, int head,
                       const HeadMask& ablated = {});

// The mask switching off the heads listed as (layer, head).
HeadMask head_mask(const LanguageModel& m, const std::vector<std::pair<int, int>>& heads);

}  // namespace lm
