#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "optimizer.h"

namespace train {
namespace {

double qk_norm(const Params& g) {
  double sum = 0;
  for (const Layer& l : g.layers) sum += double(l.wq.squaredNorm()) + double(l.wk.squaredNorm());
  return std::sqrt(sum);
}

const Config& checked(const Config& c) {
  const std::string problem = validate(c);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return c;
}

}  // namespace

int History::steps_to_accuracy(double level) const {
  for (std::size_t i = 0; i < accuracy.size(); ++i)
    if (accuracy[i] >= level) return int(i) + 1;
  return -1;
}

std::vector<double> head_entropies(const Forward& f, int heads) {
  std::vector<double> out;
  for (const Forward::LayerState& layer : f.layers) {
    std::vector<double> sum(heads, 0.0);
    std::vector<int> rows(heads, 0);
    for (const attn::HeadTrace& h : layer.trace.heads) {
      const Matrix& a = h.weights;
      for (Eigen::Index i = 0; i < a.rows(); ++i) {
        double e = 0;
        for (Eigen::Index j = 0; j < a.cols(); ++j)
          if (a(i, j) > 0) e -= double(a(i, j)) * std::log(double(a(i, j)));
        sum[h.head] += e;
      }
      rows[h.head] += int(a.rows());
    }
    for (int h = 0; h < heads; ++h) out.push_back(rows[h] ? sum[h] / rows[h] : 0.0);
  }
  return out;
}

Run::Run(const Config& c) : transformer_(checked(c)), params_(init_params(c)) {
  m_ = params_.zeros_like();
  v_ = params_.zeros_like();
  // Separate streams for the held-out batch and the training batches: the held-out
  // sequences are never trained on (except by chance) and stay the same whatever the run does.
  std::seed_seq held{c.seed, 2u}, data{c.seed, 1u};
  std::mt19937 held_rng(held);
  for (int done = 0; done < kHeldOut; done += c.batch)
    held_out_.push_back(make_batch(c, std::min(c.batch, kHeldOut - done), held_rng));
  example_ = held_out_.front();
  example_.size = 1;
  example_.tokens.resize(c.seq);
  example_.targets.resize(c.seq);
  data_rng_.seed(data);
  evaluate();
}

void Run::step() {
  const Batch batch = make_batch(config(), config().batch, data_rng_);
  const Forward f = transformer_.forward(params_, batch);
  const Params g = transformer_.backward(params_, batch, f);
  history_.loss.push_back(f.loss);
  history_.grad_norm_qk.push_back(qk_norm(g));
  history_.entropy.push_back(head_entropies(f, config().heads));
  adam_update(params_, m_, v_, g, config().lr, steps());
  evaluate();
}

void Run::evaluate() {
  int scored = 0, correct = 0;
  for (const Batch& b : held_out_) {
    const Forward f = transformer_.forward(params_, b, false);
    scored += f.scored;
    correct += f.correct;
  }
  if (steps() > 0) history_.accuracy.push_back(scored ? double(correct) / scored : 0.0);
  const Forward e = transformer_.forward(params_, example_);
  maps_.tokens = example_.tokens;
  maps_.targets = example_.targets;
  maps_.weights.clear();
  for (const Forward::LayerState& layer : e.layers)
    for (int h = 0; h < config().heads; ++h) maps_.weights.push_back(layer.trace.at(0, h).weights);
  maps_.predicted.resize(config().seq);
  for (int t = 0; t < config().seq; ++t) {
    Eigen::Index best = 0;
    e.probs.row(t).maxCoeff(&best);
    maps_.predicted[t] = int(best);
  }
}

}  // namespace train
