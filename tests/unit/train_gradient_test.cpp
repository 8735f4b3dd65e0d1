// The training lab's hand-written backward pass against central finite differences of an
// independent float64 forward pass (plain loops and float64_attention.h, no code shared
// with src/train), for every entry of every parameter, in several configurations.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "contract.h"  // attn::io::scale_name
#include "float64_attention.h"
#include "transformer.h"

namespace {

using Tensor64 = std::vector<double>;  // row-major
struct Params64 {
  std::map<std::string, Tensor64> t;
  std::map<std::string, std::pair<int, int>> dims;
};

Params64 to_double(const train::Params& p) {
  Params64 out;
  train::Params::each(p, [&](const std::string& name, const train::Matrix& m) {
    out.t[name].assign(m.data(), m.data() + m.size());
    out.dims[name] = {int(m.rows()), int(m.cols())};
  });
  return out;
}

// (rows × inner) · (inner × cols), row-major.
Tensor64 matmul(const Tensor64& a, const Tensor64& b, int rows, int inner, int cols) {
  Tensor64 c(std::size_t(rows) * cols, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < inner; ++k)
      for (int j = 0; j < cols; ++j) c[i * cols + j] += a[i * inner + k] * b[k * cols + j];
  return c;
}

// The model's loss, straight from the definition in transformer.h, in float64.
double loss64(const train::Config& c, const Params64& p, const train::Batch& b) {
  const int T = c.seq, D = c.d_model, H = c.heads, dk = c.d_k, W = H * dk, rows = b.size * T;
  Tensor64 pos;
  if (p.t.count("pos")) {
    pos = p.t.at("pos");
  } else {  // the fixed sinusoids, written out again
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < D; ++j) {
        const double angle = t / std::pow(10000.0, double(j - j % 2) / D);
        pos.push_back(j % 2 ? std::cos(angle) : std::sin(angle));
      }
  }
  // The positions join the residual stream, or (positions_in_qk) only the queries' and keys' input.
  Tensor64 x(std::size_t(rows) * D), pos_rows(std::size_t(rows) * D);
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < D; ++j) {
      pos_rows[r * D + j] = pos[(r % T) * D + j];
      x[r * D + j] = p.t.at("embed")[b.tokens[r] * D + j] + (c.positions_in_qk ? 0.0 : pos_rows[r * D + j]);
    }
  for (int l = 0; l < c.layers; ++l) {
    const std::string at = "layers[" + std::to_string(l) + "].";
    Tensor64 qk_in = x;
    if (c.positions_in_qk)
      for (std::size_t i = 0; i < x.size(); ++i) qk_in[i] += pos_rows[i];
    const Tensor64 q = matmul(qk_in, p.t.at(at + "wq"), rows, D, W), k = matmul(qk_in, p.t.at(at + "wk"), rows, D, W),
                   v = matmul(x, p.t.at(at + "wv"), rows, D, W);
    testing_ref::Problem64 prob;
    prob.batch = b.size;
    prob.heads = prob.kv_heads = H;
    prob.nq = prob.nk = T;
    prob.dk = prob.dv = dk;
    prob.scale = c.scale == attn::ScaleMode::none ? 1.0 : c.scale == attn::ScaleMode::inv_dk ? 1.0 / dk : 1.0 / std::sqrt(double(dk));
    prob.causal_offset_enabled = c.causal ? 1 : 0;
    for (const Tensor64* src : {&q, &k, &v}) {
      Tensor64& dst = src == &q ? prob.q : src == &k ? prob.k : prob.v;
      dst.resize(src->size());
      for (int s = 0; s < b.size; ++s)
        for (int h = 0; h < H; ++h)
          for (int t = 0; t < T; ++t)
            for (int d = 0; d < dk; ++d) dst[((s * H + h) * T + t) * dk + d] = (*src)[(s * T + t) * W + h * dk + d];
    }
    const Tensor64 o = testing_ref::attention64(prob).output;
    Tensor64 z(std::size_t(rows) * W);
    for (int s = 0; s < b.size; ++s)
      for (int h = 0; h < H; ++h)
        for (int t = 0; t < T; ++t)
          for (int d = 0; d < dk; ++d) z[(s * T + t) * W + h * dk + d] = o[((s * H + h) * T + t) * dk + d];
    const Tensor64 update = matmul(z, p.t.at(at + "wo"), rows, W, D);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += update[i];
  }
  const Tensor64 logits = matmul(x, p.t.at("unembed"), rows, D, c.vocab);
  double loss = 0;
  int scored = 0;
  for (int r = 0; r < rows; ++r) {
    if (b.targets[r] < 0) continue;
    double top = -INFINITY, sum = 0;
    for (int j = 0; j < c.vocab; ++j) top = std::max(top, logits[r * c.vocab + j]);
    for (int j = 0; j < c.vocab; ++j) sum += std::exp(logits[r * c.vocab + j] - top);
    loss += std::log(sum) + top - logits[r * c.vocab + b.targets[r]];
    ++scored;
  }
  return loss / scored;
}

void check_gradients(const train::Config& c) {
  SCOPED_TRACE(std::string(train::task_name(c.task)) + " layers " + std::to_string(c.layers) + " heads " +
               std::to_string(c.heads) + " scale " + attn::io::scale_name(c.scale) +
               (c.positions == train::Positions::learned ? " learned" : " sinusoidal") +
               (c.positions_in_qk ? " in Q and K only" : ""));
  ASSERT_EQ(train::validate(c), "");
  std::seed_seq seq{c.seed, 7u};
  std::mt19937 rng(seq);
  const train::Batch batch = train::make_batch(c, 3, rng);
  const train::Transformer transformer(c);
  const train::Params p = train::init_params(c);
  const train::Forward f = transformer.forward(p, batch);
  const train::Params g = transformer.backward(p, batch, f);

  Params64 p64 = to_double(p);
  EXPECT_NEAR(f.loss, loss64(c, p64, batch), 1e-4 * std::max(1.0, f.loss));
  const Params64 g64 = to_double(g);
  int checked = 0;
  for (auto& [name, values] : p64.t) {
    const Tensor64& analytic = g64.t.at(name);
    // Central differences: the error is O(h²) in float64, far below float32's rounding.
    constexpr double h = 1e-5;
    Tensor64 numeric(values.size());
    double largest = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double keep = values[i];
      values[i] = keep + h;
      const double up = loss64(c, p64, batch);
      values[i] = keep - h;
      const double down = loss64(c, p64, batch);
      values[i] = keep;
      numeric[i] = (up - down) / (2 * h);
      largest = std::max(largest, std::fabs(numeric[i]));
    }
    ASSERT_GT(largest, 0.0) << name << ": no gradient at all, nothing was checked";
    for (std::size_t i = 0; i < values.size(); ++i) {
      // float32 arithmetic in the model: agreement to a small fraction of the tensor's scale.
      EXPECT_NEAR(analytic[i], numeric[i], 2e-3 * largest + 1e-6) << name << "[" << i << "]";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

train::Config small(train::Task task) {
  train::Config c = train::defaults(task);
  c.d_model = 8;
  c.d_k = 4;
  c.seq = 6;
  c.vocab = 8;
  return c;
}

TEST(TrainGradients, OneLayerOneHeadReverse) { check_gradients(small(train::Task::reverse)); }

TEST(TrainGradients, TwoLayersTwoHeadsCausalInduction) {
  train::Config c = small(train::Task::induction);
  c.layers = 2;
  c.heads = 2;
  check_gradients(c);
}

// The language model's positions (src/lm): learned, added to the queries' and keys' input only.
TEST(TrainGradients, TwoLayersWithPositionsInQueriesAndKeysOnly) {
  train::Config c = small(train::Task::induction);
  c.layers = 2;
  c.heads = 2;
  c.positions_in_qk = true;
  check_gradients(c);
}

TEST(TrainGradients, UnscaledWithSinusoidalPositions) {
  train::Config c = small(train::Task::max);
  c.layers = 2;
  c.heads = 3;
  c.scale = attn::ScaleMode::none;
  c.positions = train::Positions::sinusoidal;
  c.init_std = 0.5f;
  check_gradients(c);
}

TEST(TrainGradients, ScaledByDkSortWithLargeProjections) {
  train::Config c = small(train::Task::sort);
  c.heads = 2;
  c.scale = attn::ScaleMode::inv_dk;
  c.proj_std = 0.8f;
  check_gradients(c);
}

}  // namespace
