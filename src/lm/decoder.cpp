#include "decoder.h"

#include <cmath>
#include <stdexcept>

namespace lm {

namespace {

std::string shape_text(Eigen::Index rows, Eigen::Index cols) { return std::to_string(rows) + " × " + std::to_string(cols); }

// `t` is rows × cols; an optional tensor may also be empty.
void expect(const std::string& name, const Matrix& t, Eigen::Index rows, Eigen::Index cols, bool optional = false) {
  if (optional && t.size() == 0) return;
  if (t.rows() != rows || t.cols() != cols)
    throw std::invalid_argument(name + ": expected " + shape_text(rows, cols) + ", got " + shape_text(t.rows(), t.cols()));
}
void expect(const std::string& name, const RowVector& t, Eigen::Index size, bool optional = true) {
  if (optional && t.size() == 0) return;
  if (t.size() != size)
    throw std::invalid_argument(name + ": expected " + std::to_string(size) + " values, got " + std::to_string(t.size()));
}
void expect(const std::string& name, const Norm& n, Eigen::Index size) {
  expect(name + ".gain", n.gain, size);
  expect(name + ".bias", n.bias, n.empty() ? 0 : size, false);
}

}  // namespace

void check(const Architecture& a, const Weights& w) {
  const int d = a.d_model, hd = a.heads * a.d_k;
  if (a.layers < 1 || a.heads < 1 || d < 1 || a.d_k < 1 || a.context < 1 || a.vocab < 1)
    throw std::invalid_argument("configuration: every size must be at least 1");
  if (int(w.layers.size()) != a.layers)
    throw std::invalid_argument("layers: expected " + std::to_string(a.layers) + ", got " + std::to_string(w.layers.size()));
  if (!a.windows.empty() && int(a.windows.size()) != a.layers)
    throw std::invalid_argument("windows: expected one per layer");
  expect("embed", w.embed, a.vocab, d);
  expect("pos", w.pos, a.context, d, true);
  for (int l = 0; l < a.layers; ++l) {
    const Block& b = w.layers[std::size_t(l)];
    const std::string at = "layers[" + std::to_string(l) + "].";
    expect(at + "ln1", b.ln1, d);
    expect(at + "ln2", b.ln2, d);
    expect(at + "wq", b.wq, d, hd), expect(at + "wk", b.wk, d, hd), expect(at + "wv", b.wv, d, hd);
    expect(at + "wo", b.wo, hd, d);
    expect(at + "bq", b.bq, hd), expect(at + "bk", b.bk, hd), expect(at + "bv", b.bv, hd), expect(at + "bo", b.bo, d);
    if (a.d_mlp > 0) {
      expect(at + "mlp_in", b.mlp_in, d, a.d_mlp);
      expect(at + "mlp_out", b.mlp_out, a.d_mlp, d);
      expect(at + "mlp_in_bias", b.mlp_in_bias, a.d_mlp);
      expect(at + "mlp_out_bias", b.mlp_out_bias, d);
    } else if (b.mlp_in.size() || b.mlp_out.size()) {
      throw std::invalid_argument(at + "mlp_in: an MLP in a model configured without one");
    }
  }
  expect("final_norm", w.final_norm, d);
  expect("unembed", w.unembed, d, a.vocab);
  expect("unembed_bias", w.unembed_bias, a.vocab);
  Weights::each(w, [](const std::string& name, const auto& t) {
    if (!t.allFinite()) throw std::invalid_argument(name + ": a value is not finite");
  });
}

Matrix layer_norm(const Matrix& x, const Norm& n, float eps, Eigen::VectorXf* scale) {
  if (scale) scale->setOnes(x.rows());
  if (n.empty()) return x;
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const Eigen::RowVectorXd row = x.row(r).cast<double>();
    const double mean = row.mean();
    const double var = (row.array() - mean).square().mean();
    const double inv = 1.0 / std::sqrt(var + double(eps));
    out.row(r) = (((row.array() - mean) * inv).cast<float>() * n.gain.array() + n.bias.array()).matrix();
    if (scale) (*scale)(r) = float(inv);
  }
  return out;
}

Matrix activate(const Matrix& x, Activation a) {
  if (a == Activation::gelu_erf)
    return x.unaryExpr([](float v) { return float(0.5 * v * (1.0 + std::erf(double(v) / std::sqrt(2.0)))); });
  const double k = std::sqrt(2.0 / M_PI);
  return x.unaryExpr([k](float v) {
    const double u = double(v);
    return float(0.5 * u * (1.0 + std::tanh(k * (u + 0.044715 * u * u * u))));
  });
}

void add_rows(Matrix& m, const RowVector& bias) {
  if (bias.size()) m.rowwise() += bias;
}

}  // namespace lm
