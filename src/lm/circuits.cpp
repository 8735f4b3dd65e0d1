#include "circuits.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace lm {

namespace {

// In double precision: the maps are products of four or five matrices, and the copying score
// an eigen-decomposition.
using Dense = Eigen::MatrixXd;

Dense dense(const Matrix& m) { return m.cast<double>(); }
Matrix single(const Dense& m) { return m.cast<float>(); }

// Head h's projections: its d_k columns of the layer's W_Q, W_K, W_V and its d_k rows of W_O,
// with its LayerNorm's gain folded into W_Q, W_K and W_V (diag(g) W), as TransformerLens folds
// it; the norm's centring and scale, and the biases, are left out.
struct HeadWeights {
  Dense wq, wk, wv, wo;
};
Dense folded(const Norm& n, const Matrix& w) {
  return n.empty() ? dense(w) : Dense(n.gain.transpose().cast<double>().asDiagonal() * dense(w));
}
HeadWeights head_weights(const LanguageModel& m, int index) {
  const Architecture& c = m.config;
  const Block& l = m.params.layers[std::size_t(index / c.heads)];
  const int at = (index % c.heads) * c.d_k;
  return {folded(l.ln1, l.wq).middleCols(at, c.d_k), folded(l.ln1, l.wk).middleCols(at, c.d_k),
          folded(l.ln1, l.wv).middleCols(at, c.d_k), dense(l.wo).middleRows(at, c.d_k)};
}

// Σλ / Σ|λ| over the eigenvalues of a square map.
double copying_score(const Dense& map) {
  const Eigen::EigenSolver<Dense> solver(map, false);
  std::complex<double> sum = 0;
  double magnitude = 0;
  for (const std::complex<double>& l : solver.eigenvalues()) {
    sum += l;
    magnitude += std::abs(l);
  }
  return magnitude > 0 ? sum.real() / magnitude : 0.0;
}

// The mean of each diagonal of a T × T score matrix: out[δ] over the entries (i, i − δ).
std::vector<double> by_offset(const Dense& scores) {
  const Eigen::Index t = scores.rows();
  std::vector<double> out(std::size_t(t), 0.0);
  for (Eigen::Index d = 0; d < t; ++d) {
    for (Eigen::Index i = d; i < t; ++i) out[std::size_t(d)] += scores(i, i - d);
    out[std::size_t(d)] /= double(t - d);
  }
  return out;
}

// The share of rows of a square map whose diagonal entry is strictly the largest of its row.
double diagonal_share(const Dense& map) {
  if (map.rows() == 0) return 0.0;
  int wins = 0;
  for (Eigen::Index t = 0; t < map.rows(); ++t) {
    bool wins_row = true;
    for (Eigen::Index s = 0; s < map.cols(); ++s) wins_row = wins_row && (s == t || map(t, s) < map(t, t));
    wins += wins_row;
  }
  return double(wins) / double(map.rows());
}

// The rows `tokens` of a V-row matrix.
Dense rows_of(const Dense& m, const std::vector<int>& tokens) {
  Dense out(Eigen::Index(tokens.size()), m.cols());
  for (std::size_t r = 0; r < tokens.size(); ++r) out.row(Eigen::Index(r)) = m.row(tokens[r]);
  return out;
}

}  // namespace

std::vector<int> readable_tokens(const Tokenizer& v) {
  std::vector<int> tokens;
  for (const std::uint32_t cp : decode_utf8("abcdefghijklmnopqrstuvwxyz \u00e1\u00e9\u00ed\u00f3\u00fa\u00f1\u00fc")) {
    // Each character on its own: a BPE's token for it where it has one.
    const std::vector<int> t = v.encode(encode_utf8(cp));
    const bool unknown = v.characters() && v.characters()->has_unknown_token() && t.size() == 1 && t.front() == Vocabulary::kUnknown;
    if (t.size() == 1 && !unknown) tokens.push_back(t.front());
  }
  return tokens;
}

Circuits circuits(const LanguageModel& m, const std::vector<int>& tokens, const Circuits* same_weights) {
  const Architecture& c = m.config;
  const double scale = c.score_scale;
  const Dense u = folded(m.params.final_norm, m.params.unembed);
  // The tokens' own rows of E and columns of W_U: the maps' rows and columns.
  const Dense e = rows_of(dense(m.params.embed), tokens), u_r = rows_of(u.transpose(), tokens).transpose();
  // Learned positions; none leaves the position part empty.
  const Dense p = dense(m.params.pos);
  Circuits out;
  out.readable = tokens;
  std::vector<HeadWeights> w;
  for (int i = 0; i < m.head_count(); ++i) w.push_back(head_weights(m, i));
  // W_U · E (D × D), for the copying scores: once per model. W_V · (W_O · W_U · E) and
  // (W_O · W_U · E) · W_V have the same nonzero eigenvalues: the second is d_k × d_k.
  const Dense ue = same_weights ? Dense() : Dense(u * dense(m.params.embed));
  // Every map through the heads' d_k-wide factors, never a D × D product: (E W_Q)(E W_K)ᵀ, not
  // E (W_Q W_Kᵀ) Eᵀ. The Frobenius norms through d_k × d_k Gram matrices: ‖W_Q W_Kᵀ‖²_F =
  // tr(W_QᵀW_Q · W_KᵀW_K), and for a pair ‖W_Q M W_Vᵀ‖²_F = tr(Mᵀ · W_QᵀW_Q · M · W_VᵀW_V) with
  // M = W_Kᵀ W_Oᵀ (the later head's W_K, the earlier's W_O).
  struct Gram {
    Dense q, k, v, o;
  };
  std::vector<Gram> gram;
  for (const HeadWeights& h_w : w)
    gram.push_back({h_w.wq.transpose() * h_w.wq, h_w.wk.transpose() * h_w.wk, h_w.wv.transpose() * h_w.wv,
                    h_w.wo * h_w.wo.transpose()});
  for (int i = 0; i < m.head_count(); ++i) {
    const HeadWeights& h_w = w[std::size_t(i)];
    HeadCircuit h;
    h.layer = i / c.heads;
    h.head = i % c.heads;
    h.ov = single((e * h_w.wv) * (h_w.wo * u_r));
    h.copying = same_weights ? same_weights->heads[std::size_t(i)].copying : copying_score(h_w.wo * ue * h_w.wv);
    h.qk = single(scale * (e * h_w.wq) * (e * h_w.wk).transpose());
    if (p.size()) h.positions = by_offset(scale * (p * h_w.wq) * (p * h_w.wk).transpose());
    out.heads.push_back(std::move(h));
  }
  for (int from = 0; from < m.head_count(); ++from)
    for (int to = 0; to < m.head_count(); ++to) {
      if (from / c.heads >= to / c.heads) continue;
      const HeadWeights &f = w[std::size_t(from)], &g = w[std::size_t(to)];
      const Gram &gf = gram[std::size_t(from)], &gg = gram[std::size_t(to)];
      const Dense map = scale * (e * g.wq) * ((e * f.wv) * (f.wo * g.wk)).transpose();
      const Dense mk = g.wk.transpose() * f.wo.transpose();  // d_k × d_k
      const double cross = (mk.transpose() * gg.q * mk * gf.v).trace();
      const double qk = (gg.q * gg.k).trace(), ov = (gf.v * gf.o).trace();
      out.composition.push_back({from, to, single(map), diagonal_share(map), std::sqrt(cross / (qk * ov))});
    }
  out.frobenius_random = 1 / std::sqrt(double(c.d_model));
  return out;
}

Attribution attribute(const LanguageModel& m, const Analysis& as_set, const train::HeadMask& off,
                      const std::vector<Matrix>& flipped, int position, int target, int against) {
  const int n = int(as_set.tokens.size()), vocab = m.vocab.size();
  if (position < 0 || position >= n)
    throw std::invalid_argument("at: position " + std::to_string(position) + " is outside the text read (0 to " +
                                std::to_string(n - 1) + ")");
  if (target < 0 || target >= vocab) throw std::invalid_argument("target: not a character of the model");
  if (against >= vocab) throw std::invalid_argument("against: not a character of the model");
  if (against == target) throw std::invalid_argument("against: the same character as the target");
  if ((!flipped.empty() && int(flipped.size()) != m.head_count()) || int(as_set.outputs.size()) != m.head_count())
    throw std::invalid_argument("attribute: expected one pass per head");
  // The column the residual stream is read through, and the value it gives from logits; the
  // final norm's gain folded into the column, its scale at the position held.
  const Matrix& u = m.params.unembed;
  Eigen::VectorXd column = u.col(target).cast<double>();
  column -= against >= 0 ? Eigen::VectorXd(u.col(against).cast<double>()) : Eigen::VectorXd(u.cast<double>().rowwise().mean());
  const Norm& norm = m.params.final_norm;
  const double scale = double(as_set.final_scale(position));
  const Eigen::VectorXd read = norm.empty() ? column : Eigen::VectorXd(norm.gain.transpose().cast<double>().cwiseProduct(column));
  const auto value_of = [&](const Matrix& logits) {
    const auto row = logits.row(position).cast<double>();
    return double(row(target)) - (against >= 0 ? double(row(against)) : row.mean());
  };
  const auto centred = [&](Eigen::RowVectorXd r) {
    if (!norm.empty()) r.array() -= r.mean();
    return r;
  };
  const auto part = [&](const Matrix& residual) { return scale * centred(residual.row(position).cast<double>()).dot(read); };
  Attribution a;
  a.position = position;
  a.target = target;
  a.against = against;
  a.value = value_of(as_set.logits);
  a.embedding = part(as_set.embedding);
  for (const RowVector& b : as_set.attention_bias)
    if (b.size()) a.attention_bias.push_back(scale * centred(b.cast<double>()).dot(read));
  for (const Matrix& mlp : as_set.mlp)
    if (mlp.size()) a.mlp.push_back(part(mlp));
  if (!norm.empty()) a.final_bias = norm.bias.cast<double>().dot(column);
  if (const RowVector& b = m.params.unembed_bias; b.size())
    a.unembed_bias = double(b(target)) - (against >= 0 ? double(b(against)) : b.cast<double>().mean());
  for (int h = 0; h < m.head_count(); ++h) {
    a.direct.push_back(part(as_set.outputs[std::size_t(h)]));
    if (flipped.empty()) continue;
    const double other = value_of(flipped[std::size_t(h)]);
    const bool is_off = std::size_t(h) < off.size() && off[std::size_t(h)];
    a.total.push_back(is_off ? other - a.value : a.value - other);
  }
  return a;
}

std::vector<AttributionPart> ordered_parts(const LanguageModel& m, const Attribution& a) {
  using Kind = AttributionPart::Kind;
  std::vector<AttributionPart> out{{Kind::embedding, -1, -1, a.embedding, NAN}};
  std::size_t bias = 0, mlp = 0;  // a's lists hold the layers that have one, in order
  for (int layer = 0; layer < m.config.layers; ++layer) {
    for (int h = layer * m.config.heads; h < (layer + 1) * m.config.heads; ++h)
      out.push_back({Kind::head, layer, h, a.direct[std::size_t(h)], std::size_t(h) < a.total.size() ? a.total[std::size_t(h)] : NAN});
    const Block& b = m.params.layers[std::size_t(layer)];
    if (b.bo.size()) out.push_back({Kind::attention_bias, layer, -1, a.attention_bias[bias++], NAN});
    if (b.mlp_in.size()) out.push_back({Kind::mlp, layer, -1, a.mlp[mlp++], NAN});
  }
  if (!m.params.final_norm.empty()) out.push_back({Kind::final_bias, -1, -1, a.final_bias, NAN});
  if (m.params.unembed_bias.size()) out.push_back({Kind::unembed_bias, -1, -1, a.unembed_bias, NAN});
  return out;
}

double Attribution::sum() const {
  double s = embedding + final_bias + unembed_bias;
  for (const auto* parts : {&direct, &attention_bias, &mlp})
    for (const double p : *parts) s += p;
  return s;
}

}  // namespace lm
