// The circuits of the language model (issue 42, docs/model.md "What a head writes"): what each
// head writes (OV), what it looks for (QK, a character part and a position part), how a later
// head reads an earlier head's output through its keys (K-composition), and one prediction split
// exactly into the parts the residual stream is a sum of (attribution).
//
// The model has no layer norm, no MLP and no bias (docs/model.md), so the residual stream at
// position i after the last layer is
//     x(i) = E[x_i] + Σ_{l,h} out_{l,h}(i),   out_{l,h}(i) = z_{l,h}(i) · W_O^{l,h}
// (z the head's attention output, W_O^{l,h} its d_k rows of the layer's W_O) and the logits are
// x(i) · W_U: a sum, split exactly. Positions are added to the queries' and keys' input only
// (model_config's positions_in_qk), so they shape where heads look, never what the residual
// stream carries; a model with positions in the residual stream would count them in the
// embedding's part.
//
// circuits() depends on the weights only: computed once per weight file. attribute() reads
// passes the caller already has (the view's forward pass and its one pass per head switched
// the other way), so it costs no forward pass.
#pragma once

#include <vector>

#include "language_model.h"

namespace lm {

// The characters the maps show by default: the lower-case letters a–z, the space and the
// Spanish letters á é í ó ú ñ ü, as tokens of `v` (those it has), in that order.
std::vector<int> readable_tokens(const Tokenizer& v);

// One head's circuits over the tokens given to circuits() (R × R, in their order). Scores are
// in the attention's own units: times the model's score scale (1/√d_k for most).
struct HeadCircuit {
  int layer = 0, head = 0;
  // OV: row s, column c = E[s] · W_V · W_O · W_U[:, c], the logit of c the head adds when it
  // puts all its weight on a key holding token s (read directly by the output). With layer
  // norms, their gains are folded into W_V and W_U and their centring, scale and biases left
  // out (TransformerLens's OV circuit).
  Matrix ov;
  // Σλ / Σ|λ| over the eigenvalues λ of the d_model × d_model map W_V · W_O · W_U · E (the
  // nonzero eigenvalues of the V × V OV map): +1 a head that copies every character it reads,
  // −1 one that suppresses them; Σλ is real (complex λ come in conjugate pairs).
  double copying = 0;
  // QK, character part: row t (query character), column s (key character) =
  // E[t] · W_Q · W_Kᵀ · E[s]ᵀ / √d_k. For a layer after the first this is the direct path only
  // (the embedding's part of the query and the key, not what earlier heads wrote).
  Matrix qk;
  // QK, position part by offset: positions[δ] for δ = 0 … context − 1 is the mean over the
  // query positions i = δ … context − 1 of P[i] · W_Q · W_Kᵀ · P[i − δ]ᵀ / √d_k (a key δ
  // characters before its query). The cross terms E·W_Q·W_Kᵀ·Pᵀ and P·W_Q·W_Kᵀ·Eᵀ are in
  // neither part.
  std::vector<double> positions;
};

// K-composition from head `from` (an earlier layer) into head `to`: row t (the query's
// character), column s (the character a key's residual holds where `from` put all its weight
// on a key holding s) = E[t] · W_Q^to · W_K^toᵀ · (E[s] · W_V^from · W_O^from)ᵀ / √d_k.
// Positions (in Q and K only) are left out, as in HeadCircuit::qk.
struct Composition {
  int from = 0, to = 0;  // head indices, layer × heads + head; from's layer < to's
  Matrix map;            // R × R
  // The share of the tokens t whose diagonal map[t][t] is strictly the largest of
  // its row over the readable columns: `to` looks for the key where `from` read the query's
  // own character (what an induction head does through a previous-token head).
  double share = 0;
  // The usual scalar K-composition score (Elhage et al. 2021), over the d_model-wide weights
  // rather than the characters: ‖W_Q^to W_K^toᵀ (W_V^from W_O^from)ᵀ‖_F ÷ (‖W_Q^to W_K^toᵀ‖_F
  // ‖W_V^from W_O^from‖_F). Compare it with Circuits::frobenius_random.
  double frobenius = 0;
};

struct Circuits {
  std::vector<int> readable;                // the tokens the maps are over (R)
  std::vector<HeadCircuit> heads;           // index layer × heads + head
  std::vector<Composition> composition;     // every (from, to) with from's layer < to's,
                                            // ordered by from, then to
  // What Composition::frobenius is for two unrelated matrices: 1/√d_model. For A and B of
  // d_model columns with B's directions random, E‖A Bᵀ‖²_F = ‖A‖²_F ‖B‖²_F / d_model, so the
  // score of weights that ignore each other is about its root (0.125 at d_model 64).
  double frobenius_random = 0;
};

// The circuits over `tokens` (readable_tokens(m.vocab) for a character model; a BPE model's
// over the text's own tokens). The copying scores depend on the weights alone and cost
// d_model² · V: `same_weights`, circuits of the same model over other tokens, lends its own.
// Throws nothing on a model a reader accepted.
Circuits circuits(const LanguageModel& m, const std::vector<int>& tokens, const Circuits* same_weights = nullptr);
inline Circuits circuits(const LanguageModel& m) { return circuits(m, readable_tokens(m.vocab)); }

// One logit at one position split into its parts. value = logit[target] − mean over the
// vocabulary of the logits (against < 0: softmax ignores the mean, so this is the part that
// decides the prediction), or logit[target] − logit[against]. The final residual stream is a sum
// of parts (Analysis); with a final LayerNorm, LN(x) = (x − mean x) · s · g + b with s its
// 1 / √(var + ε) at this position held fixed (TransformerLens's convention), so each part r
// counts as (r − mean r) · s · g read through the column W_U[:, target] − mean_c W_U[:, c] (or
// − W_U[:, against]); the norm's bias b and the unembedding's bias are parts of their own. The
// parts sum to value up to rounding.
struct Attribution {
  int position = 0, target = 0, against = -1;
  double value = 0;
  double embedding = 0;        // E[x_position]'s part (and its position's, in the residual stream)
  std::vector<double> direct;  // per head (layer × heads + head): its output's part (0 when off)
  std::vector<double> attention_bias;  // per layer with an attention output bias b_O: its part
  std::vector<double> mlp;             // per layer with an MLP: its output's part
  double final_bias = 0;               // the final LayerNorm's bias through the column
  double unembed_bias = 0;             // the unembedding's bias, b_U[target] − mean (or − b_U[against])
  // Per head: value with the head on minus value with it off, the rest as set (for a head that
  // is off, what switching it on would change): what it does through every path, also through
  // later heads' queries, keys and values. Empty when no flipped passes were given.
  std::vector<double> total;
  double sum() const;  // every part: equal to value up to rounding
};

// One part of an attribution, in the order of the residual stream: the embedding; per layer its
// heads (head: layer × heads + head), its attention bias, its MLP; the final norm's bias and the
// unembedding's. total: a head's total effect, NaN for the others and while it is pending.
struct AttributionPart {
  enum class Kind { embedding, head, attention_bias, mlp, final_bias, unembed_bias };
  Kind kind;
  int layer = -1, head = -1;
  double direct = 0, total = 0;
};
// What the view's bars and experiment()'s parts list: every part the model has, in that order.
std::vector<AttributionPart> ordered_parts(const LanguageModel& m, const Attribution& a);

// `as_set`: the analysis with the heads `off` switched off (lm::analyse, which keeps each
// part of the residual stream); `flipped[h]`: the logits (n × V) of the same text with head h
// switched the other way, or none at all (then `total` is left empty: the direct parts alone).
// Throws std::invalid_argument naming the field: "at" outside the text read, "target"/"against"
// not a token of the vocabulary, or against == target.
Attribution attribute(const LanguageModel& m, const Analysis& as_set, const train::HeadMask& off,
                      const std::vector<Matrix>& flipped, int position, int target, int against = -1);

}  // namespace lm
