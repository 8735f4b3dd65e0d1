#include "trainer.h"

#include <cmath>
#include <stdexcept>
#include <thread>

#include "optimizer.h"

namespace lm {
namespace {

// Tokens random runs draw from: the lower-case letters a to z.
std::vector<int> letter_tokens(const Vocabulary& v) {
  std::vector<int> out;
  for (char c = 'a'; c <= 'z'; ++c) out.push_back(v.encode(std::string(1, c)).front());
  return out;
}

// One share of a batch: rows [from, from + count).
train::Batch slice(const train::Batch& b, int from, int count) {
  train::Batch s;
  s.size = count;
  s.seq = b.seq;
  s.tokens.assign(b.tokens.begin() + from * b.seq, b.tokens.begin() + (from + count) * b.seq);
  s.targets.assign(b.targets.begin() + from * b.seq, b.targets.begin() + (from + count) * b.seq);
  return s;
}

}  // namespace

float learning_rate(const TrainOptions& o, int t) {
  if (t <= o.warmup) return o.lr * float(t) / float(o.warmup);
  const double progress = double(t - o.warmup) / double(std::max(1, o.steps - o.warmup));
  const double cosine = 0.5 * (1 + std::cos(M_PI * std::min(1.0, progress)));
  return float(o.lr * (o.final_lr_fraction + (1 - o.final_lr_fraction) * cosine));
}

LanguageModel train_model(const Vocabulary& vocab, const std::string& corpus, const TrainOptions& o,
                          const TrainLog& log) {
  if (o.threads < 1 || o.batch < o.threads) throw std::invalid_argument("threads: expected 1 to the batch size");
  train::Config config = model_config(o.layers, o.heads, o.d_model, o.context, vocab.size(), o.seed);
  config.init_std = o.init_std;
  train::Params params = train::init_params(config);
  const std::vector<int> tokens = vocab.encode(corpus), letters = letter_tokens(vocab);
  const int space = vocab.encode(" ").front();
  if (space == Vocabulary::kUnknown || letters.front() == Vocabulary::kUnknown)
    throw std::invalid_argument("vocabulary: needs the space and the letters a to z");
  const train::Transformer model(config);
  train::Params adam_m = params.zeros_like(), adam_v = params.zeros_like();
  std::seed_seq data_seed{o.seed, 1u};
  std::mt19937 rng(data_seed);

  std::vector<train::Params> grads(o.threads);
  std::vector<double> losses(o.threads);
  std::vector<int> scored(o.threads);
  for (int t = 1; t <= o.steps; ++t) {
    const train::Batch batch = corpus_rows(tokens, letters, space, o.context, o.batch, o.mix, rng);
    const auto share = [&](int k) {
      const int from = o.batch * k / o.threads, to = o.batch * (k + 1) / o.threads;
      const train::Batch part = slice(batch, from, to - from);
      const train::Forward f = model.forward(params, part);
      grads[k] = model.backward(params, part, f);
      losses[k] = f.loss;
      scored[k] = f.scored;
    };
    std::vector<std::thread> workers;
    for (int k = 1; k < o.threads; ++k) workers.emplace_back(share, k);
    share(0);
    for (std::thread& w : workers) w.join();
    // Each share's gradient is of its own mean loss: weight it by its share of the scored positions.
    int total = 0;
    for (int s : scored) total += s;
    double loss = 0;
    train::Params g = params.zeros_like();
    for (int k = 0; k < o.threads; ++k) {
      const float w = float(scored[k]) / float(total);
      std::vector<Matrix*> sum;
      train::Params::each(g, [&](const std::string&, Matrix& x) { sum.push_back(&x); });
      std::size_t i = 0;
      train::Params::each(grads[k], [&](const std::string&, const Matrix& x) { *sum[i++] += w * x; });
      loss += losses[k] * scored[k] / total;
    }
    train::adam_update(params, adam_m, adam_v, g, learning_rate(o, t), t, o.weight_decay);
    if (log) log(t, loss, lab_model(vocab, config, params));
  }
  return lab_model(vocab, config, params);
}

}  // namespace lm
