// The tiny attention-only transformer, forward and backward, batched over sequences.
//
//   x⁰ = E[tokens] + P                               (B·T × D)  embedding plus positions
//   for each layer l:
//     Q = xˡ W_Q,  K = xˡ W_K,  V = xˡ W_V           (B·T × H·d_k), split into H heads
//                                                     (with positions_in_qk: x⁰ = E[tokens], and
//                                                     Q, K read xˡ + P instead of xˡ)
//     Z_h = softmax(scale · Q_h K_hᵀ + mask) V_h      the kernel's reference, per (sequence, head)
//     xˡ⁺¹ = xˡ + Z W_O                               (B·T × D)  the residual stream; an ablated
//                                                     head's Z_h is zeroed first
//   logits = xᴸ U                                     (B·T × vocab)
//   loss = mean over scored positions of −log softmax(logits)[target]
//
// The backward pass goes through the same steps in reverse; the attention's own gradients
// come from the kernel's reference_backward. No layer norm and no MLP: every pattern the
// model learns lives in its attention maps.
#pragma once

#include <string>
#include <vector>

#include "config.h"
#include "reference.h"
#include "tasks.h"

namespace train {

using attn::Matrix;

struct Layer {
  Matrix wq, wk, wv;  // D × H·d_k
  Matrix wo;          // H·d_k × D
};

// The parameters, or their gradients, or Adam's moments: the same tensors.
struct Params {
  Matrix embed;      // vocab × D
  Matrix pos;        // T × D (learned; fixed sinusoids are not trained and stay empty here)
  std::vector<Layer> layers;
  Matrix unembed;    // D × vocab

  // Calls f(name, tensor) for every tensor, in one fixed order (Adam, norms, the tests).
  template <class P, class F>
  static void each(P& p, F&& f) {
    f("embed", p.embed);
    if (p.pos.size()) f("pos", p.pos);
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
      const std::string at = "layers[" + std::to_string(l) + "].";
      f(at + "wq", p.layers[l].wq);
      f(at + "wk", p.layers[l].wk);
      f(at + "wv", p.layers[l].wv);
      f(at + "wo", p.layers[l].wo);
    }
    f("unembed", p.unembed);
  }
  // The same shapes, all zero.
  Params zeros_like() const;
};

// Draws the initial parameters from the configuration's seed and standard deviations.
Params init_params(const Config& c);

// The fixed sinusoidal positions (T × D).
Matrix sinusoids(int seq, int d_model);

// Everything the backward pass needs from the forward pass.
// Heads switched off, index layer * heads + head (empty, or shorter: none beyond its end).
using HeadMask = std::vector<bool>;

struct Forward {
  struct LayerState {  // empty unless the pass was recorded
    Matrix x;                       // the residual stream entering the layer (B·T × D)
    std::vector<float> q, k, v;     // (B, H, T, d_k): the kernel's layout
    attn::Trace trace;              // every intermediate of every (sequence, head)
    Matrix z;                       // the heads' outputs side by side (B·T × H·d_k)
  };
  std::vector<LayerState> layers;
  Matrix x_out;    // the residual stream after the last layer (B·T × D)
  Matrix probs;    // softmax of the logits (B·T × vocab)
  double loss = 0;
  int scored = 0;   // positions the task scores
  int correct = 0;  // of them, those whose most likely token is the target
};

class Transformer {
 public:
  explicit Transformer(const Config& c);
  const Config& config() const { return config_; }

  // With `record`, keeps every intermediate for backward() and the maps; without, only the
  // result (what evaluation needs). The heads in `ablated` contribute nothing to the residual
  // stream (their maps are still computed and recorded).
  Forward forward(const Params& p, const Batch& b, bool record = true, const HeadMask& ablated = {}) const;
  // The same from the residual stream `x` (B·T × D) entering layer `first`: the layers before
  // it are not run, and `layers` holds only those that are (a pass with a head switched off
  // shares everything before that head's layer with the pass without).
  Forward forward_from(const Params& p, const Batch& b, int first, Matrix x, bool record = true,
                       const HeadMask& ablated = {}) const;
  // dLoss/dParams for the batch the forward pass saw.
  Params backward(const Params& p, const Batch& b, const Forward& f) const;

 private:
  attn::Options attention_options() const;
  attn::Shape attention_shape(int batch) const;

  Config config_;
  // The positions of every row of a batch (B·T × D).
  Matrix position_rows(const Params& p, int batch) const;

  Matrix fixed_pos_;  // the sinusoids when positions are fixed
};

}  // namespace train
