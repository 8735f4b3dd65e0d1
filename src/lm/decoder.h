// One decoder-only transformer for every model the lab reads (docs/your-model.md): the lab's
// own attention-only character model, its twin and checkpoints, and the GPT-2 family a user
// brings (Hugging Face GPT-2 and GPT-Neo, nanoGPT, llm.c). A file format's reader fills an
// Architecture and its Weights; language_model.h runs them.
//
//   x⁰ = E[tokens] (+ P, with positions in the residual stream)        n × D
//   for each layer l (pre-norm; a block without LayerNorm reads x itself):
//     h = LN₁(x)                       q = (h (+ P)) W_Q + b_Q   k likewise    v = h W_V + b_V
//     z_h = softmax(scale · q_h k_hᵀ + causal and window mask) v_h             each head
//     x ← x + Σ_h z_h W_O,h + b_O       (a head switched off adds nothing; b_O is the layer's)
//     x ← x + GELU(LN₂(x) W_in + b_in) W_out + b_out                          (without an MLP: nothing)
//   logits = LN_f(x) W_U + b_U          (W_U = Eᵀ when tied)
//
// Matrices are stored x·W (in × out), whatever layout the file had: each reader transposes
// nn.Linear's out × in.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "reference.h"  // attn::Matrix

namespace lm {

using Matrix = attn::Matrix;
using RowVector = Eigen::RowVectorXf;

enum class Positions {
  residual,      // added to the residual stream (GPT-2)
  queries_keys,  // added to the queries' and keys' input only (the lab's model)
};
enum class Activation {
  gelu_tanh,  // GPT-2's and llm.c's gelu_new: 0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))
  gelu_erf,   // nanoGPT's nn.GELU(): 0.5x(1 + erf(x/√2))
};

struct Architecture {
  int layers = 0, heads = 0, d_model = 0, d_k = 0, context = 0, vocab = 0;
  int d_mlp = 0;  // the MLP's width; 0 for a model without MLPs
  Positions positions = Positions::residual;
  Activation activation = Activation::gelu_tanh;
  float norm_eps = 1e-5f;  // every LayerNorm's ε (the file's)
  float score_scale = 0;   // multiplies q·k: 1/√d_k, or 1 (GPT-Neo scales nothing)
  // Per layer: 0 for a layer whose queries see every earlier key, w for one that sees the w
  // keys ending at its own position (GPT-Neo's local layers). Empty: all global.
  std::vector<int> windows;
  int window(int layer) const { return windows.empty() ? 0 : windows[std::size_t(layer)]; }
  // Whether layer l's query i may attend key j: causal, and within its window where it has one.
  bool sees(int layer, int i, int j) const { return j <= i && (window(layer) == 0 || i - j < window(layer)); }
};

// A LayerNorm's gain and bias (1 × D each); empty where the model has none.
struct Norm {
  RowVector gain, bias;
  bool empty() const { return gain.size() == 0; }
};

struct Block {
  Norm ln1, ln2;
  Matrix wq, wk, wv;     // D × H·d_k
  RowVector bq, bk, bv;  // 1 × H·d_k, or empty
  Matrix wo;             // H·d_k × D
  RowVector bo;          // 1 × D, or empty
  Matrix mlp_in;         // D × d_mlp, or empty: no MLP
  RowVector mlp_in_bias;
  Matrix mlp_out;        // d_mlp × D
  RowVector mlp_out_bias;
};

struct Weights {
  Matrix embed;  // vocab × D
  Matrix pos;    // context × D, or empty (no learned positions)
  std::vector<Block> layers;
  Norm final_norm;
  Matrix unembed;          // D × vocab (Eᵀ for a tied model)
  RowVector unembed_bias;  // 1 × vocab, or empty
  bool tied = false;       // unembed is embedᵀ (counted once among the parameters)

  // Calls f(name, tensor) for every tensor the model has (empty ones left out), in one fixed
  // order: embed, pos, then per layer ln1, attention, ln2, MLP, then the final norm and unembed.
  template <class W, class F>
  static void each(W& w, F&& f) {
    const auto put = [&](const std::string& name, auto& t) {
      if (t.size()) f(name, t);
    };
    put("embed", w.embed);
    put("pos", w.pos);
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
      auto& b = w.layers[l];
      const std::string at = "layers[" + std::to_string(l) + "].";
      put(at + "ln1.gain", b.ln1.gain), put(at + "ln1.bias", b.ln1.bias);
      put(at + "wq", b.wq), put(at + "wk", b.wk), put(at + "wv", b.wv), put(at + "wo", b.wo);
      put(at + "bq", b.bq), put(at + "bk", b.bk), put(at + "bv", b.bv), put(at + "bo", b.bo);
      put(at + "ln2.gain", b.ln2.gain), put(at + "ln2.bias", b.ln2.bias);
      put(at + "mlp_in", b.mlp_in), put(at + "mlp_in_bias", b.mlp_in_bias);
      put(at + "mlp_out", b.mlp_out), put(at + "mlp_out_bias", b.mlp_out_bias);
    }
    put("final_norm.gain", w.final_norm.gain), put("final_norm.bias", w.final_norm.bias);
    if (!w.tied) put("unembed", w.unembed);
    put("unembed_bias", w.unembed_bias);
  }
};

// Throws std::invalid_argument naming the first tensor whose shape does not fit the
// architecture (as "<tensor>: expected R × C, got r × c"), or a value that is not finite.
void check(const Architecture& a, const Weights& w);

// LayerNorm of each row (in double precision, then rounded): (x − mean) / √(var + ε) · gain +
// bias; x itself for an empty norm. `scale`, when given, receives each row's 1 / √(var + ε)
// (1 for an empty norm).
Matrix layer_norm(const Matrix& x, const Norm& n, float eps, Eigen::VectorXf* scale = nullptr);

// The activation, elementwise.
Matrix activate(const Matrix& x, Activation a);

// Adds the row `bias` (if not empty) to every row of `m`.
void add_rows(Matrix& m, const RowVector& bias);

}  // namespace lm
