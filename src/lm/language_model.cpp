#include "language_model.h"

#include <cmath>
#include <stdexcept>

namespace lm {

long LanguageModel::parameter_count() const {
  long n = 0;
  train::Params::each(params, [&](const std::string&, const Matrix& t) { n += long(t.size()); });
  return n;
}

train::Config model_config(int layers, int heads, int d_model, int context, int vocab, std::uint32_t seed) {
  train::Config c;
  c.layers = layers;
  c.heads = heads;
  c.d_model = d_model;
  c.d_k = d_model / heads;
  c.seq = context;
  c.vocab = vocab;
  c.causal = true;
  c.positions = train::Positions::learned;
  c.positions_in_qk = true;
  c.seed = seed;
  return c;
}

double Analysis::mean_loss() const {
  double sum = 0;
  for (double l : loss) sum += l;
  return loss.empty() ? 0.0 : sum / double(loss.size());
}

namespace {

// The recorded forward pass on one text, its context cut to the text's length.
train::Forward forward(const LanguageModel& m, const std::vector<int>& tokens, const train::HeadMask& ablated) {
  const int n = int(tokens.size());
  if (n < 1 || n > m.context())
    throw std::invalid_argument("text: expected 1 to " + std::to_string(m.context()) + " characters, got " +
                                std::to_string(n));
  for (int t : tokens)
    if (t < 0 || t >= m.vocab.size()) throw std::invalid_argument("text: token " + std::to_string(t) + " is not in the vocabulary");
  // The same weights over a context of n: the positions' first n rows, an n × n causal map.
  train::Config c = m.config;
  c.seq = n;
  train::Batch b;
  b.size = 1;
  b.seq = n;
  b.tokens = tokens;
  b.targets.assign(n, -1);
  return train::Transformer(c).forward(m.params, b, true, ablated);
}

}  // namespace

Analysis analyse(const LanguageModel& m, const std::vector<int>& tokens, const train::HeadMask& ablated) {
  const int n = int(tokens.size());
  const train::Forward f = forward(m, tokens, ablated);
  const train::Config& c = m.config;

  Analysis a;
  a.tokens = tokens;
  a.embedding = f.layers.empty() ? f.x_out : f.layers.front().x;
  for (std::size_t l = 0; l < f.layers.size(); ++l)
    for (int h = 0; h < c.heads; ++h) {
      a.maps.push_back(f.layers[l].trace.at(0, h).weights);
      // The head's d_k columns of z (zero when switched off) through its d_k rows of W_O.
      a.outputs.push_back(f.layers[l].z.middleCols(h * c.d_k, c.d_k) * m.params.layers[l].wo.middleRows(h * c.d_k, c.d_k));
    }
  a.logits = f.x_out * m.params.unembed;
  a.probs.resize(n, m.vocab.size());
  for (int i = 0; i < n; ++i) {
    const double top = a.logits.row(i).maxCoeff();
    double sum = 0;
    for (int v = 0; v < a.logits.cols(); ++v) sum += std::exp(double(a.logits(i, v)) - top);
    for (int v = 0; v < a.logits.cols(); ++v) a.probs(i, v) = float(std::exp(double(a.logits(i, v)) - top) / sum);
    if (i + 1 < n) a.loss.push_back(std::log(sum) - (double(a.logits(i, tokens[i + 1])) - top));
  }
  return a;
}

HeadInputs head_inputs(const LanguageModel& m, const std::vector<int>& tokens, int layer, int head,
                       const train::HeadMask& ablated) {
  head_mask(m, {{layer, head}});  // throws on a head the model does not have
  const train::Forward f = forward(m, tokens, ablated);
  const int n = int(tokens.size()), d = m.config.d_k;
  const train::Forward::LayerState& l = f.layers[std::size_t(layer)];
  // The kernel's layout (batch 1, heads, n, d_k): head `head`'s n × d_k block.
  const auto block = [&](const std::vector<float>& all) {
    return Matrix(Eigen::Map<const Matrix>(all.data() + std::size_t(head) * n * d, n, d));
  };
  return {block(l.q), block(l.k), block(l.v)};
}

train::HeadMask head_mask(const LanguageModel& m, const std::vector<std::pair<int, int>>& heads) {
  train::HeadMask mask(m.head_count(), false);
  for (const auto& [layer, head] : heads) {
    if (layer < 0 || layer >= m.config.layers || head < 0 || head >= m.config.heads)
      throw std::invalid_argument("ablate: no head " + std::to_string(layer) + "." + std::to_string(head) +
                                  " (layers 0 to " + std::to_string(m.config.layers - 1) + ", heads 0 to " +
                                  std::to_string(m.config.heads - 1) + ")");
    mask[layer * m.config.heads + head] = true;
  }
  return mask;
}

}  // namespace lm
