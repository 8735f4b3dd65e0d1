#include "transformer.h"

#include <cmath>

#include "portable_exp.h"
#include "products.h"
#include "sampling.h"

namespace train {
namespace {

// (B·T × H·d) with heads side by side  <->  (B, H, T, d), the kernel's layout.
std::vector<float> to_heads(const Matrix& m, int batch, int seq, int heads, int d) {
  std::vector<float> out(m.size());
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h)
      for (int t = 0; t < seq; ++t)
        for (int j = 0; j < d; ++j)
          out[((std::size_t(b) * heads + h) * seq + t) * d + j] = m(b * seq + t, h * d + j);
  return out;
}

Matrix from_heads(const std::vector<float>& x, int batch, int seq, int heads, int d) {
  Matrix m(batch * seq, heads * d);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h)
      for (int t = 0; t < seq; ++t)
        for (int j = 0; j < d; ++j) m(b * seq + t, h * d + j) = x[((std::size_t(b) * heads + h) * seq + t) * d + j];
  return m;
}

Matrix normal(std::uint32_t seed, std::uint32_t stream, int rows, int cols, float std) {
  const std::vector<float> z = experiments::standard_normal(seed, stream, std::size_t(rows) * cols);
  return Eigen::Map<const Matrix>(z.data(), rows, cols) * std;
}

}  // namespace

Params Params::zeros_like() const {
  Params z = *this;
  each(z, [](const std::string&, Matrix& m) { m.setZero(); });
  return z;
}

Matrix sinusoids(int seq, int d_model) {
  Matrix p(seq, d_model);
  for (int t = 0; t < seq; ++t)
    for (int j = 0; j < d_model; ++j) {
      const double angle = t / std::pow(10000.0, double(j - j % 2) / d_model);
      p(t, j) = float(j % 2 ? std::cos(angle) : std::sin(angle));
    }
  return p;
}

Params init_params(const Config& c) {
  // One stream per tensor, so changing one size leaves the others' draws alone.
  const int width = c.heads * c.d_k;
  const float w = c.projection_std();
  Params p;
  p.embed = normal(c.seed, 10, c.vocab, c.d_model, c.init_std);
  if (c.positions == Positions::learned) p.pos = normal(c.seed, 11, c.seq, c.d_model, c.init_std);
  for (int l = 0; l < c.layers; ++l) {
    const std::uint32_t s = 20 + 4 * std::uint32_t(l);
    p.layers.push_back({normal(c.seed, s, c.d_model, width, w), normal(c.seed, s + 1, c.d_model, width, w),
                        normal(c.seed, s + 2, c.d_model, width, w), normal(c.seed, s + 3, width, c.d_model, w)});
  }
  p.unembed = normal(c.seed, 12, c.d_model, c.vocab, w);
  return p;
}

Transformer::Transformer(const Config& c) : config_(c) {
  if (c.positions == Positions::sinusoidal) fixed_pos_ = sinusoids(c.seq, c.d_model);
}

attn::Options Transformer::attention_options() const {
  attn::Options o;
  o.scale = attn::scale_for(config_.scale, config_.d_k);
  o.causal = config_.causal ? attn::Causal::top_left : attn::Causal::none;
  return o;
}

attn::Shape Transformer::attention_shape(int batch) const {
  attn::Shape s;
  s.batch = batch;
  s.heads = s.kv_heads = config_.heads;
  s.nq = s.nk = config_.seq;
  s.dk = s.dv = config_.d_k;
  return s;
}

Matrix Transformer::position_rows(const Params& p, int batch) const {
  const Matrix& pos = p.pos.size() ? p.pos : fixed_pos_;
  Matrix rows(batch * config_.seq, config_.d_model);
  for (int r = 0; r < rows.rows(); ++r) rows.row(r) = pos.row(r % config_.seq);
  return rows;
}

Forward Transformer::forward(const Params& p, const Batch& b, bool record, const HeadMask& ablated) const {
  const Config& c = config_;
  Matrix x(b.size * c.seq, c.d_model);
  for (int r = 0; r < x.rows(); ++r) x.row(r) = p.embed.row(b.tokens[r]);
  if (!c.positions_in_qk) x += position_rows(p, b.size);
  return forward_from(p, b, 0, std::move(x), record, ablated);
}

Forward Transformer::forward_from(const Params& p, const Batch& b, int first, Matrix x, bool record,
                                  const HeadMask& ablated) const {
  const Config& c = config_;
  const int rows = b.size * c.seq;
  const attn::Shape shape = attention_shape(b.size);
  const attn::Options options = attention_options();
  const Matrix pos = position_rows(p, b.size);

  Forward f;
  std::vector<float> out(shape.out_size());
  for (int l = first; l < c.layers; ++l) {
    const Layer& layer = p.layers[l];
    Forward::LayerState s;
    Matrix with_pos;
    if (c.positions_in_qk) with_pos = x + pos;
    const Matrix& qk_in = c.positions_in_qk ? with_pos : x;
    s.q = to_heads(product(qk_in, layer.wq), b.size, c.seq, c.heads, c.d_k);
    s.k = to_heads(product(qk_in, layer.wk), b.size, c.seq, c.heads, c.d_k);
    s.v = to_heads(product(x, layer.wv), b.size, c.seq, c.heads, c.d_k);
    const attn::Inputs in{shape, s.q.data(), s.k.data(), s.v.data()};
    if (record) {
      s.trace = attn::reference_forward(in, options);
      s.z = from_heads(s.trace.gather(&attn::HeadTrace::output), b.size, c.seq, c.heads, c.d_k);
      s.x = x;
    } else {
      attn::forward(in, options, out.data());
      s.z = from_heads(out, b.size, c.seq, c.heads, c.d_k);
    }
    for (int h = 0; h < c.heads; ++h)
      if (std::size_t(l * c.heads + h) < ablated.size() && ablated[l * c.heads + h])
        s.z.middleCols(h * c.d_k, c.d_k).setZero();
    add_product(s.z, layer.wo, x);
    if (record) f.layers.push_back(std::move(s));
  }
  f.x_out = x;

  const Matrix logits = product(x, p.unembed);
  f.probs.resize(rows, c.vocab);
  for (int r = 0; r < rows; ++r) {
    const float top = logits.row(r).maxCoeff();
    f.probs.row(r) = attn::portable_exp(logits.row(r).array() - top);
    const float sum = f.probs.row(r).sum();
    f.probs.row(r) /= sum;
    const int target = b.targets[r];
    if (target < 0) continue;
    // −log p = log Σ e^(l − top) − (l_target − top), without rounding p first.
    f.loss += std::log(double(sum)) - double(logits(r, target) - top);
    ++f.scored;
    Eigen::Index best = 0;
    logits.row(r).maxCoeff(&best);
    f.correct += int(best) == target;
  }
  if (f.scored) f.loss /= f.scored;
  return f;
}

Params Transformer::backward(const Params& p, const Batch& b, const Forward& f) const {
  const Config& c = config_;
  const int rows = b.size * c.seq;
  const attn::Shape shape = attention_shape(b.size);
  const attn::Options options = attention_options();
  Params g = p.zeros_like();
  const Matrix pos = c.positions_in_qk ? position_rows(p, b.size) : Matrix();

  // d loss / d logits = (softmax − one-hot) / scored, on the scored rows only.
  Matrix d_logits = Matrix::Zero(rows, c.vocab);
  for (int r = 0; r < rows; ++r) {
    if (b.targets[r] < 0) continue;
    d_logits.row(r) = f.probs.row(r);
    d_logits(r, b.targets[r]) -= 1.0f;
  }
  if (f.scored) d_logits /= float(f.scored);
  g.unembed = product_tn(f.x_out, d_logits);
  Matrix dx = product_nt(d_logits, p.unembed);

  for (int l = c.layers - 1; l >= 0; --l) {
    const Forward::LayerState& s = f.layers[l];
    const Layer& layer = p.layers[l];
    Layer& gl = g.layers[l];
    gl.wo = product_tn(s.z, dx);
    const std::vector<float> dz = to_heads(product_nt(dx, layer.wo), b.size, c.seq, c.heads, c.d_k);
    const attn::Gradients ag =
        attn::reference_backward({shape, s.q.data(), s.k.data(), s.v.data()}, options, s.trace, dz.data());
    const Matrix dq = from_heads(ag.dq, b.size, c.seq, c.heads, c.d_k);
    const Matrix dk = from_heads(ag.dk, b.size, c.seq, c.heads, c.d_k);
    const Matrix dv = from_heads(ag.dv, b.size, c.seq, c.heads, c.d_k);
    gl.wv = product_tn(s.x, dv);
    // The residual stream passes dx through unchanged, plus what flows back through Q, K, V;
    // with positions_in_qk, what flows back through Q and K reaches the positions too.
    if (c.positions_in_qk) {
      const Matrix qk_in = s.x + pos;
      gl.wq = product_tn(qk_in, dq);
      gl.wk = product_tn(qk_in, dk);
      Matrix d_qk = product_nt(dq, layer.wq);
      add_product(dk, layer.wk.transpose(), d_qk);
      dx += d_qk;
      if (g.pos.size())
        for (int r = 0; r < rows; ++r) g.pos.row(r % c.seq) += d_qk.row(r);
    } else {
      gl.wq = product_tn(s.x, dq);
      gl.wk = product_tn(s.x, dk);
      add_product(dq, layer.wq.transpose(), dx);
      add_product(dk, layer.wk.transpose(), dx);
    }
    add_product(dv, layer.wv.transpose(), dx);
  }

  for (int r = 0; r < rows; ++r) {
    g.embed.row(b.tokens[r]) += dx.row(r);
    if (g.pos.size() && !c.positions_in_qk) g.pos.row(r % c.seq) += dx.row(r);
  }
  return g;
}

}  // namespace train
