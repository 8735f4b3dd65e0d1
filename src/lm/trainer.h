// Trains the language model on a corpus: AdamW with a linear warm-up and a cosine decay, on
// corpus_rows()' batches, the batch split over threads (each runs the forward and backward
// pass of its share; their gradients are summed in a fixed order, so a seed gives the same
// model every time with the same thread count). Native only: the page never trains it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "corpus_rows.h"
#include "language_model.h"

namespace lm {

struct TrainOptions {
  int layers = 3, heads = 4, d_model = 64, context = 128;
  int steps = 5000;
  int batch = 32;  // rows per step
  float init_std = 0.1f;  // the embeddings' and positions' (the projections': 1/√d_model)
  float lr = 1e-2f, weight_decay = 0.01f;
  int warmup = 100;             // steps of linear warm-up
  float final_lr_fraction = 0.1f;  // the cosine decay ends at lr times this
  int threads = 2;
  std::uint32_t seed = 2;  // the shipped model's (docs/model.md: the seed moves the scores as much as the mix)
  RowMix mix;
};

// The learning rate at step t (1-based).
float learning_rate(const TrainOptions& o, int t);

// `log(step, loss, model)` after every step: the step's batch loss (before its update) and
// the model after it.
using TrainLog = std::function<void(int, double, const LanguageModel&)>;
LanguageModel train_model(const Vocabulary& vocab, const std::string& corpus, const TrainOptions& o,
                          const TrainLog& log = {});

}  // namespace lm
