#include "language_model.h"

#include <cmath>
#include <stdexcept>

namespace lm {

long LanguageModel::parameter_count() const {
  long n = 0;
  Weights::each(params, [&](const std::string&, const auto& t) { n += long(t.size()); });
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

LanguageModel lab_model(const Vocabulary& vocab, const train::Config& c, const train::Params& p) {
  LanguageModel m;
  m.vocab = vocab;
  m.config.layers = c.layers;
  m.config.heads = c.heads;
  m.config.d_model = c.d_model;
  m.config.d_k = c.d_k;
  m.config.context = c.seq;
  m.config.vocab = vocab.size();
  m.config.positions = c.positions_in_qk ? Positions::queries_keys : Positions::residual;
  m.config.score_scale = attn::scale_for(c.scale, c.d_k);
  m.params.embed = p.embed;
  m.params.pos = p.pos;
  for (const train::Layer& l : p.layers) {
    Block b;
    b.wq = l.wq, b.wk = l.wk, b.wv = l.wv, b.wo = l.wo;
    m.params.layers.push_back(std::move(b));
  }
  m.params.unembed = p.unembed;
  return m;
}

double Analysis::mean_loss() const {
  double sum = 0;
  for (double l : loss) sum += l;
  return loss.empty() ? 0.0 : sum / double(loss.size());
}

namespace {

void check_text(const LanguageModel& m, const std::vector<int>& tokens) {
  const int n = int(tokens.size());
  if (n < 1 || n > m.context())
    throw std::invalid_argument("text: expected 1 to " + std::to_string(m.context()) +
                                (m.vocab.bpe() ? " tokens, got " : " characters, got ") + std::to_string(n));
  for (int t : tokens)
    if (t < 0 || t >= m.vocab.size()) throw std::invalid_argument("text: token " + std::to_string(t) + " is not in the vocabulary");
}

bool is_off(const HeadMask& off, int head) { return std::size_t(head) < off.size() && off[std::size_t(head)]; }

// Layer l's queries, keys and values of every head side by side (n × H·d_k each), from the
// residual stream x entering it.
struct Projections {
  Matrix q, k, v;
};
Projections project(const LanguageModel& m, int l, const Matrix& x) {
  const Block& b = m.params.layers[std::size_t(l)];
  const Matrix h = layer_norm(x, b.ln1, m.config.norm_eps);
  Projections p;
  if (m.config.positions == Positions::queries_keys && m.params.pos.size()) {
    const Matrix with_pos = h + m.params.pos.topRows(x.rows());
    p.q = with_pos * b.wq, p.k = with_pos * b.wk;
  } else {
    p.q = h * b.wq, p.k = h * b.wk;
  }
  p.v = h * b.wv;
  add_rows(p.q, b.bq), add_rows(p.k, b.bk), add_rows(p.v, b.bv);
  return p;
}

// The kernel's layout (batch 1, heads, n, d_k) of n × H·d_k columns side by side, and back.
std::vector<float> by_head(const Matrix& side_by_side, int heads, int d) {
  const int n = int(side_by_side.rows());
  std::vector<float> out(std::size_t(heads) * n * d);
  for (int h = 0; h < heads; ++h)
    Eigen::Map<Matrix>(out.data() + std::size_t(h) * n * d, n, d) = side_by_side.middleCols(h * d, d);
  return out;
}

// Layer l's attention on x: its maps and each head's output written into a at the layer's
// indices (index layer · heads + head), its bias; returns x plus all of it.
Matrix attention(const LanguageModel& m, int l, const Matrix& x, const HeadMask& off, Analysis& a) {
  const Architecture& c = m.config;
  const Block& b = m.params.layers[std::size_t(l)];
  const int n = int(x.rows()), d = c.d_k;
  const Projections p = project(m, l, x);
  const std::vector<float> q = by_head(p.q, c.heads, d), k = by_head(p.k, c.heads, d), v = by_head(p.v, c.heads, d);
  attn::Inputs in;
  in.shape.heads = in.shape.kv_heads = c.heads;
  in.shape.nq = in.shape.nk = n;
  in.shape.dk = in.shape.dv = d;
  in.q = q.data(), in.k = k.data(), in.v = v.data();
  attn::Options o;
  o.scale = c.score_scale;
  o.causal = attn::Causal::top_left;
  if (const int w = c.window(l); w > 0 && w < n) {  // a local layer: the w keys ending at the query
    o.mask.kind = attn::Mask::Kind::boolean;
    o.mask.dims = {1, 1, n, n};
    o.mask.values.resize(std::size_t(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) o.mask.values[std::size_t(i) * n + j] = c.sees(l, i, j) ? 1.0f : 0.0f;
  }
  const attn::Trace t = attn::reference_forward(in, o);
  const std::size_t first = std::size_t(l) * c.heads;
  a.maps.resize(first + c.heads);
  a.outputs.resize(first + c.heads);
  Matrix after = x;
  for (int h = 0; h < c.heads; ++h) {
    a.maps[first + h] = t.at(0, h).weights;
    Matrix& out = a.outputs[first + h];
    if (is_off(off, int(first) + h)) out = Matrix::Zero(n, c.d_model);
    else out = t.at(0, h).output * b.wo.middleRows(h * d, d);
    after += out;
  }
  a.attention_bias.resize(std::size_t(l) + 1);
  a.attention_bias[std::size_t(l)] = b.bo;
  add_rows(after, b.bo);
  return after;
}

// Layer l's MLP on x (entering it, after the layer's attention), kept in a; returns x plus it.
Matrix mlp(const LanguageModel& m, int l, const Matrix& x, Analysis& a) {
  const Block& b = m.params.layers[std::size_t(l)];
  a.mlp.resize(std::size_t(l) + 1);
  if (!b.mlp_in.size()) return x;
  Matrix hidden = layer_norm(x, b.ln2, m.config.norm_eps) * b.mlp_in;
  add_rows(hidden, b.mlp_in_bias);
  Matrix out = activate(hidden, m.config.activation) * b.mlp_out;
  add_rows(out, b.mlp_out_bias);
  a.mlp[std::size_t(l)] = out;
  return x + out;
}

// The logits, probabilities and losses from the final residual stream x.
void finish(const LanguageModel& m, const Matrix& x, Analysis& a) {
  const int n = int(a.tokens.size());
  a.logits = layer_norm(x, m.params.final_norm, m.config.norm_eps, &a.final_scale) * m.params.unembed;
  add_rows(a.logits, m.params.unembed_bias);
  a.probs.resize(n, m.vocab.size());
  a.loss.clear();
  for (int i = 0; i < n; ++i) {
    const double top = a.logits.row(i).maxCoeff();
    double sum = 0;
    for (int v = 0; v < a.logits.cols(); ++v) sum += std::exp(double(a.logits(i, v)) - top);
    for (int v = 0; v < a.logits.cols(); ++v) a.probs(i, v) = float(std::exp(double(a.logits(i, v)) - top) / sum);
    if (i + 1 < n) a.loss.push_back(std::log(sum) - (double(a.logits(i, a.tokens[i + 1])) - top));
  }
}

// Layers first … last from x, the residual stream entering layer `first` (or, with
// `after_attention`, leaving its attention: only its MLP is left of it), then the logits.
void run(const LanguageModel& m, Matrix x, int first, bool after_attention, const HeadMask& off, Analysis& a) {
  for (int l = first; l < m.config.layers; ++l) {
    if (l != first || !after_attention) x = attention(m, l, x, off, a);
    x = mlp(m, l, x, a);
  }
  finish(m, x, a);
}

// The residual stream entering layer `layer`, from the parts of the layers before it.
Matrix entering(const Analysis& a, int layer, int heads) {
  Matrix x = a.embedding;
  for (int g = 0; g < layer * heads; ++g) x += a.outputs[std::size_t(g)];
  for (int l = 0; l < layer; ++l) {
    add_rows(x, a.attention_bias[std::size_t(l)]);
    if (a.mlp[std::size_t(l)].size()) x += a.mlp[std::size_t(l)];
  }
  return x;
}

}  // namespace

Analysis analyse(const LanguageModel& m, const std::vector<int>& tokens, const HeadMask& ablated) {
  check_text(m, tokens);
  const int n = int(tokens.size());
  Analysis a;
  a.tokens = tokens;
  a.embedding.resize(n, m.config.d_model);
  for (int i = 0; i < n; ++i) a.embedding.row(i) = m.params.embed.row(tokens[std::size_t(i)]);
  if (m.config.positions == Positions::residual && m.params.pos.size()) a.embedding += m.params.pos.topRows(n);
  run(m, a.embedding, 0, false, ablated, a);
  return a;
}

Analysis analyse_flipped(const LanguageModel& m, const Analysis& as_set, const HeadMask& off, int head) {
  head_mask(m, {{head / m.config.heads, head % m.config.heads}});  // throws on a head the model does not have
  const Architecture& c = m.config;
  const int layer = head / c.heads, d = c.d_k;
  Analysis a;
  a.tokens = as_set.tokens;
  a.embedding = as_set.embedding;
  a.maps.assign(as_set.maps.begin(), as_set.maps.begin() + (layer + 1) * c.heads);
  a.outputs.assign(as_set.outputs.begin(), as_set.outputs.begin() + (layer + 1) * c.heads);
  a.attention_bias.assign(as_set.attention_bias.begin(), as_set.attention_bias.begin() + layer + 1);
  a.mlp.assign(as_set.mlp.begin(), as_set.mlp.begin() + layer);
  // The residual stream entering the head's layer, and leaving its attention with the head flipped.
  const Matrix x = entering(as_set, layer, c.heads);
  Matrix after = x;
  for (int g = layer * c.heads; g < (layer + 1) * c.heads; ++g) after += as_set.outputs[std::size_t(g)];
  add_rows(after, as_set.attention_bias[std::size_t(layer)]);
  Matrix& out = a.outputs[std::size_t(head)];
  const bool was_off = is_off(off, head);
  if (was_off) {
    // What it writes when on: its map (computed while off too) over its values, through W_O.
    const int at = (head % c.heads) * d;
    out = as_set.maps[std::size_t(head)] * project(m, layer, x).v.middleCols(at, d) *
          m.params.layers[std::size_t(layer)].wo.middleRows(at, d);
    after += out;
  } else {
    after -= out;
    out.setZero();
  }
  HeadMask flipped = off;
  flipped.resize(std::size_t(m.head_count()), false);
  flipped[std::size_t(head)] = !was_off;
  run(m, after, layer, true, flipped, a);
  return a;
}

HeadInputs head_inputs(const LanguageModel& m, const std::vector<int>& tokens, int layer, int head,
                       const HeadMask& ablated) {
  head_mask(m, {{layer, head}});  // throws on a head the model does not have
  const Analysis a = analyse(m, tokens, ablated);
  const Projections p = project(m, layer, entering(a, layer, m.config.heads));
  const int d = m.config.d_k;
  return {p.q.middleCols(head * d, d), p.k.middleCols(head * d, d), p.v.middleCols(head * d, d)};
}

HeadMask head_mask(const LanguageModel& m, const std::vector<std::pair<int, int>>& heads) {
  HeadMask mask(m.head_count(), false);
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
