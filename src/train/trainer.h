// One training run: the model, its parameters, Adam, fresh batches from the seed and a fixed
// held-out batch, and the history of every step. It advances one step at a time, so the
// page can run a few steps between frames; it knows nothing of the UI.
//
// Deterministic: a configuration (seed included) gives the same run every time. The data
// depends only on the task's settings and the seed, so two runs that differ in the scale,
// the initialisation or the learning rate see the same batches.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "config.h"
#include "transformer.h"

namespace train {

struct History {
  std::vector<double> loss;                  // the step's batch, before its update
  std::vector<double> accuracy;              // held-out, after the update
  std::vector<std::vector<double>> entropy;  // per step, each head's mean attention entropy
                                             // (nats; layer-major), on the step's batch
  std::vector<double> grad_norm_qk;          // ‖∂L/∂W_Q, ∂L/∂W_K‖ over all layers
  // The first step (1-based) whose held-out accuracy reached `level`, or -1.
  int steps_to_accuracy(double level) const;
};

// The attention maps of every layer and head on one fixed held-out sequence.
struct Maps {
  std::vector<int> tokens;       // the sequence (the maps' axes)
  std::vector<int> targets;      // what the task scores there (-1: nothing)
  std::vector<Matrix> weights;   // index layer * heads + head, each seq × seq
  std::vector<int> predicted;    // the model's most likely token at each position
};

class Run {
 public:
  // Held-out sequences, evaluated after every step: their forward pass is a large share of a
  // step, and 32 of them still score a few hundred predictions.
  static constexpr int kHeldOut = 32;

  // Throws std::invalid_argument with validate()'s sentence if the configuration is bad.
  explicit Run(const Config& c);

  void step();
  int steps() const { return int(history_.loss.size()); }
  const Config& config() const { return transformer_.config(); }
  const History& history() const { return history_; }
  const Maps& maps() const { return maps_; }  // after the latest step (or at initialisation)
  const Params& params() const { return params_; }

 private:
  void evaluate();  // held-out accuracy and the fixed example's maps

  Transformer transformer_;
  Params params_, m_, v_;  // the parameters and Adam's first and second moments
  std::mt19937 data_rng_;
  // The held-out sequences in slices of a training batch's size: each pass's matrices stay
  // small enough for the allocator to reuse (larger ones are mapped and unmapped every step).
  std::vector<Batch> held_out_;
  Batch example_;  // the held-out batch's first sequence, whose maps the view shows
  History history_;
  Maps maps_;
};

// Mean entropy −Σ a log a of the attention rows of each head in a forward pass (layer-major).
std::vector<double> head_entropies(const Forward& f, int heads);

}  // namespace train
