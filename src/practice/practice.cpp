#include "practice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "i18n.h"
#include "number_text.h"
#include "sampling.h"
#include "scaling.h"

namespace practice {
namespace {

std::string num(double x, int digits = 4) {
  if (x == 0) x = 0;  // no "-0"
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  // A weight just under 1 written "1" reads as exactly one-hot (a saturated row's 0.99962):
  // digits are added until it does not, up to 6 (float32's 1 − 6e-8 is 1).
  while (std::fabs(x) < 1 && std::fabs(std::atof(text)) == 1 && digits < 6)
    std::snprintf(text, sizeof text, "%.*g", ++digits, x);
  return text;
}

std::string list(const std::vector<double>& xs, int digits = 4) {
  std::string out = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + num(xs[i], digits);
  return out + "]";
}

// One query row through the kernel: q = [1], the keys' "k" are the scores themselves (d_k = 1,
// scale 1), so the kernel's weights are the softmax of `scores` with `blocked` keys masked
// by adding `fill`.
attn::HeadTrace row_through_kernel(const std::vector<float>& scores, const std::vector<int>& blocked, float fill) {
  attn::Shape s;
  s.nq = 1, s.nk = int(scores.size()), s.dk = 1, s.dv = 1;
  const float one = 1.0f;
  const std::vector<float> v(scores.size(), 0.0f);
  attn::Options o;
  o.scale = 1.0f;
  o.mask_fill = fill;
  if (!blocked.empty()) {
    o.mask.kind = attn::Mask::Kind::boolean;
    o.mask.dims = {1, 1, 1, s.nk};
    o.mask.values.assign(scores.size(), 1.0f);
    for (int j : blocked) o.mask.values[std::size_t(j)] = 0.0f;
  }
  return attn::reference_forward({s, &one, scores.data(), v.data()}, o).at(0, 0);
}

// The keys of row i that the mask leaves, in order.
std::vector<int> open_keys(const Live& live, int i) {
  std::vector<int> keys;
  for (int j = 0; j < live.head.weights.cols(); ++j)
    if (live.mask_reason(i, j).empty()) keys.push_back(j);
  return keys;
}

// s_ij spelled out from the live numbers: q_i·k_j, times the scale, plus the mask.
std::string score_arithmetic(const Live& live, int i, int j) {
  std::string out = live.query_label(i) + "·" + live.key_label(j) + " = " + num(live.head.raw(i, j)) + ", × " +
                    num(live.scale) + " = " + num(live.head.scaled(i, j));
  if (live.head.mask(i, j) != 0)
    out += i18n::format(tr(", + mask %s = %s"), num(live.head.mask(i, j)).c_str(), num(live.head.masked(i, j)).c_str());
  return out;
}

Question largest_weight(const Live& live) {
  const int i = live.query;
  const auto& w = live.head.weights;
  std::vector<int> keys = open_keys(live, i);
  Question q;
  if (keys.empty()) return q;  // every key blocked: nothing to choose
  // Beyond eight keys: the six with the largest weights, listed in key order (no hint in the order).
  if (keys.size() > 8) {
    std::partial_sort(keys.begin(), keys.begin() + 6, keys.end(), [&](int a, int b) { return w(i, a) > w(i, b); });
    keys.resize(6);
    std::sort(keys.begin(), keys.end());
  }
  const float best = w.row(i).maxCoeff();
  std::string scores;
  for (std::size_t c = 0; c < keys.size(); ++c) {
    q.choices.push_back(live.key_label(keys[c]));
    if (best - w(i, keys[c]) <= 1e-6f) q.expected.push_back(double(c));
    scores += (c ? ", " : "") + live.key_label(keys[c]) + " " + num(live.head.masked(i, keys[c]));
  }
  const int top = keys[std::size_t(q.expected.front())];
  q.text = i18n::format(tr("Which key does query %s give the largest weight?"), live.query_label(i).c_str());
  q.about_screen = true;
  q.expected_text = live.key_label(top);
  q.explanation = i18n::format(tr("The softmax keeps the order of the scores, so the largest score wins. Query %s's "
                                  "scores (scaled, masked): %s. The largest is %s's, %s, which gets weight %s."),
                               live.query_label(i).c_str(), scores.c_str(), q.expected_text.c_str(),
                               num(live.head.masked(i, top)).c_str(), num(w(i, top)).c_str());
  return q;
}

Question weight(const Live& live, std::uint32_t seed) {
  const int i = live.query;
  const std::vector<int> keys = open_keys(live, i);
  Question q;
  if (keys.empty()) return q;
  const int j = keys[seed % keys.size()];
  const auto& h = live.head;
  const double w = h.weights(i, j);
  q.text = i18n::format(tr("What weight does query %s give key %s? (within ±0.01)"), live.query_label(i).c_str(),
                        live.key_label(j).c_str());
  q.about_screen = true;
  q.expected = {w};
  q.tolerance = 0.01;
  q.expected_text = num(w);
  const std::string top = num(h.row_max(i)), term = num(h.exps(i, j)), total = num(h.row_sum(i));
  q.explanation = i18n::format(tr("Score: %s. Subtract the row's maximum %s: e^(%s − %s) = %s. Divide by the row's sum "
                                  "of such terms, %s: %s / %s = %s."),
                               score_arithmetic(live, i, j).c_str(), top.c_str(), num(h.masked(i, j)).c_str(),
                               top.c_str(), term.c_str(), total.c_str(), term.c_str(), total.c_str(),
                               q.expected_text.c_str());
  return q;
}

Question output_row(const Live& live) {
  const int i = live.query;
  const auto& h = live.head;
  const int cols = std::min<int>(int(h.output.cols()), 4);
  Question q;
  for (int d = 0; d < cols; ++d) q.expected.push_back(h.output(i, d));
  q.tolerance = 0.02;
  const std::string label = live.query_label(i);
  q.text = cols < h.output.cols()
               ? i18n::format(tr("What is the output row of query %s? (its first %d entries) (each within ±0.02)"),
                              label.c_str(), cols)
               : i18n::format(tr("What is the output row of query %s? (each within ±0.02)"), label.c_str());
  q.about_screen = true;
  q.expected_text = list(q.expected, 3);
  // The terms of Σ_j w_ij v_j, the largest weights first, at most four.
  std::vector<int> keys(std::size_t(h.weights.cols()));
  std::iota(keys.begin(), keys.end(), 0);
  std::stable_sort(keys.begin(), keys.end(), [&](int a, int b) { return h.weights(i, a) > h.weights(i, b); });
  std::string terms;
  int shown = 0;
  for (int j : keys) {
    if (h.weights(i, j) == 0 || shown == 4) break;
    std::vector<double> vj;
    for (int d = 0; d < cols; ++d) vj.push_back(live.v(j, d));
    terms += (shown++ ? " + " : "") + num(h.weights(i, j), 3) + "·" + list(vj, 3);
  }
  if (shown < (h.weights.row(i).array() > 0).count())
    terms = i18n::format(tr("%s + … (smaller weights)"), terms.c_str());
  q.explanation = i18n::format(tr("The output is the weighted average of the value rows: Σ_j w_ij v_j = %s = %s."),
                               terms.c_str(), q.expected_text.c_str());
  return q;
}

// A fresh row of scores with one key blocked: the weight an open key gets. Not "what does the
// blocked key get" (0, which the masks chapter states): what the open keys share once it is out.
Question masked_weight(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> scores(4);
  int blocked = 0, asked = 0;
  attn::HeadTrace t;
  // Drawn again until blocking the key moves the asked weight by more than 0.05: an answer that
  // forgets to take the key out is wrong.
  do {
    for (float& s : scores) s = float(rng() % 4);
    blocked = int(rng() % 4);
    asked = int(rng() % 3);
    if (asked >= blocked) ++asked;  // an open key
    t = row_through_kernel(scores, {blocked}, attn::kNegInf);
  } while (std::fabs(t.weights(0, asked) - row_through_kernel(scores, {}, attn::kNegInf).weights(0, asked)) <= 0.05f);
  Question q;
  q.text = i18n::format(tr("A row's scores are %s. The mask blocks key %d (it adds −∞ to its score). What weight "
                           "does key %d get after the softmax? (keys counted from 0, within ±0.01)"),
                        list({scores[0], scores[1], scores[2], scores[3]}, 3).c_str(), blocked, asked);
  q.expected = {t.weights(0, asked)};
  q.tolerance = 0.01;
  q.expected_text = num(q.expected[0]);
  std::string terms;
  double total = 0;
  for (int j = 0; j < 4; ++j) {
    if (j == blocked) continue;
    const float s = scores[std::size_t(j)];
    terms += (terms.empty() ? "e^" : " + e^") + num(s);
    total += std::exp(double(s));
  }
  q.explanation = i18n::format(tr("Key %d's score becomes −∞ and e^(−∞) = 0, so it drops out of the sum; the other "
                                  "three share all of the weight: e^%s / (%s) = %s / %s = %s."),
                               blocked, num(scores[std::size_t(asked)]).c_str(), terms.c_str(),
                               num(std::exp(double(scores[std::size_t(asked)]))).c_str(), num(total).c_str(),
                               q.expected_text.c_str());
  return q;
}

Question shape(std::uint32_t seed, int number) {
  std::mt19937 rng(seed);
  attn::Shape s;
  s.nq = 2 + int(rng() % 15);
  do s.nk = 2 + int(rng() % 15); while (s.nk == s.nq);
  static constexpr int kDims[] = {16, 32, 64, 128};
  s.dk = kDims[rng() % 4];
  do s.dv = kDims[rng() % 4]; while (s.dv == s.dk);
  const experiments::Problem p = experiments::random_problem(s, seed);
  attn::Options o;
  o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, s.dk);
  const attn::HeadTrace t = attn::reference_forward(p.inputs(), o).at(0, 0);
  const bool output = number % 2 == 1;
  const attn::Matrix& m = output ? t.output : t.scaled;
  Question q;
  q.text = i18n::format(output ? tr("Q is %d×%d, K is %d×%d and V is %d×%d. What is the shape of the output "
                                    "softmax(QKᵀ/√d_k)V?")
                               : tr("Q is %d×%d, K is %d×%d and V is %d×%d. What is the shape of S = QKᵀ/√d_k?"),
                        s.nq, s.dk, s.nk, s.dk, s.nk, s.dv);
  q.expected = {double(m.rows()), double(m.cols())};
  // Not translated: it is also how a shape is typed as an answer.
  q.expected_text = std::to_string(m.rows()) + "×" + std::to_string(m.cols());
  q.explanation = output ? i18n::format(tr("The weights A = softmax(S) are n_q × n_k = %d×%d; A·V takes one row of V "
                                           "per key, so the output is n_q × d_v = %s. d_k only sets the length of the "
                                           "dot products."),
                                        s.nq, s.nk, q.expected_text.c_str())
                         : i18n::format(tr("Each of the %d queries is dotted with each of the %d keys: n_q × n_k = %s. "
                                           "d_k is summed over, and the scale does not change the shape."),
                                        s.nq, s.nk, q.expected_text.c_str());
  return q;
}

Question spread(std::uint32_t seed, int number) {
  static constexpr int kDks[] = {16, 64, 256, 512};
  const int dk = kDks[seed % 4];
  const int which = number % 3;  // q·k, q·k/√d_k, q·k/d_k
  static constexpr const char* kForms[] = {"q·k", "q·k/√d_k", "q·k/d_k"};
  // Components of variance v other than 1 (the chapter's case): the answer is worked out, not
  // recalled. A product of two has variance v², so q·k spreads by √d_k·v. None of these v is
  // 1/√d_k or √d_k at a d_k asked, so no answer is one that unit variance would give.
  static constexpr double kVariances[] = {0.5, 2, 3};
  const double variance = kVariances[(seed / 4) % 3];
  const double root = std::sqrt(double(dk));
  const double want = variance * (which == 0 ? root : which == 1 ? 1.0 : 1.0 / root);
  const experiments::ScalingData measured = experiments::scaling(dk, seed);
  Question q;
  q.text = i18n::format(tr("q and k have d_k = %d independent components, each with mean 0 and variance v = %s. What is "
                           "the standard deviation of %s? (within 10%%)"),
                        dk, num(variance).c_str(), kForms[which]);
  q.expected = {want};
  q.tolerance = 0.1 * want;
  q.expected_text = num(want);
  const std::string v = num(variance);
  q.explanation = i18n::format(tr("Each term q_d k_d has variance v·v = %s·%s, and q·k adds d_k = %d of them, so "
                                  "Var(q·k) = d_k v² and its standard deviation is √d_k·v = %s. Dividing by √d_k "
                                  "leaves v = %s; by d_k, v/√d_k = %s. Measured by the kernel on random q and k of "
                                  "variance 1: standard deviation %s for q·k and %s for q·k/√d_k; yours are v = %s "
                                  "times those."),
                               v.c_str(), v.c_str(), dk, num(variance * root).c_str(), v.c_str(),
                               num(variance / root).c_str(), num(std::sqrt(measured.variance_raw)).c_str(),
                               num(std::sqrt(measured.variance_scaled)).c_str(), v.c_str());
  return q;
}

Question fill_pitfall(std::uint32_t seed) {
  std::mt19937 rng(seed);
  const std::vector<float> scores = {float(rng() % 4), float(rng() % 4), float(rng() % 4)};
  const attn::HeadTrace t = row_through_kernel(scores, {2}, -1.0f);
  Question q;
  q.text = i18n::format(tr("A row's scores are %s and the last key must be masked, but the mask adds −1 instead of −∞. "
                           "What weight does the masked key still get? (within ±0.01)"),
                        list({scores[0], scores[1], scores[2]}, 3).c_str());
  q.expected = {t.weights(0, 2)};
  q.tolerance = 0.01;
  q.expected_text = num(t.weights(0, 2));
  const double a = std::exp(double(scores[0])), b = std::exp(double(scores[1])), c = std::exp(double(scores[2]) - 1);
  const std::string lowered = num(scores[2] - 1.0);
  q.explanation = i18n::format(tr("Adding −1 only lowers the score to %s: e^%s / (e^%s + e^%s + e^%s) = %s / %s = %s. "
                                  "The masked key keeps real weight; with −∞ it would get exactly 0."),
                               lowered.c_str(), lowered.c_str(), num(scores[0]).c_str(), num(scores[1]).c_str(),
                               lowered.c_str(), num(c).c_str(), num(a + b + c).c_str(), q.expected_text.c_str());
  return q;
}

Question stable_softmax(std::uint32_t seed) {
  std::mt19937 rng(seed);
  static constexpr float kBases[] = {200.0f, 500.0f, 1000.0f};
  const float base = kBases[rng() % 3];
  // Three different scores, so the answer is not simply 1/3.
  static constexpr float kOffsets[3][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}};
  const float* offset = kOffsets[rng() % 3];
  std::vector<float> scores = {base + offset[0], base + offset[1], base + offset[2]};
  // std::shuffle's algorithm differs between standard libraries; a rotation is the same in both.
  std::rotate(scores.begin(), scores.begin() + rng() % 3, scores.end());
  const attn::HeadTrace t = row_through_kernel(scores, {}, attn::kNegInf);
  Question q;
  const float m = *std::max_element(scores.begin(), scores.end());
  q.text = i18n::format(tr("What is the largest weight of softmax(%s)? (within ±0.01)"),
                        list({scores[0], scores[1], scores[2]}, 6).c_str());
  q.expected = {double(t.weights.row(0).maxCoeff())};
  q.tolerance = 0.01;
  q.expected_text = num(q.expected[0]);
  std::vector<double> shifted, exps;
  for (float s : scores) shifted.push_back(s - m), exps.push_back(std::exp(double(s - m)));
  const std::string total = num(exps[0] + exps[1] + exps[2]);
  q.explanation = i18n::format(tr("e^%s overflows float32 (its largest value is about e^88.7), so subtract the maximum "
                                  "%s first; the weights do not change: %s → e^ = %s, sum %s, largest weight 1 / %s = "
                                  "%s."),
                               num(base).c_str(), num(m).c_str(), list(shifted, 3).c_str(), list(exps, 4).c_str(),
                               total.c_str(), total.c_str(), q.expected_text.c_str());
  return q;
}

Question saturation(std::uint32_t seed) {
  static constexpr int kDks[] = {4, 9, 16};
  const int dk = kDks[seed % 3];
  const float root = std::sqrt(float(dk));
  const attn::HeadTrace scaled = row_through_kernel({0.0f, root, 2 * root}, {}, attn::kNegInf);
  const attn::HeadTrace unscaled = row_through_kernel({0.0f, float(dk), 2.0f * dk}, {}, attn::kNegInf);
  const double w = scaled.weights(0, 2), u = unscaled.weights(0, 2);
  Question q;
  q.text = i18n::format(tr("Raw scores are [0, d_k, 2·d_k] with d_k = %d, scaled by 1/√d_k. How fast does the winning "
                           "key's weight w follow its own score s: what is ∂w/∂s? (within ±0.01)"),
                        dk);
  q.expected = {w * (1 - w)};
  q.tolerance = 0.01;
  q.expected_text = num(w * (1 - w));
  q.explanation = i18n::format(tr("Scaled, the scores are [0, %s, %s], w = %s and ∂w/∂s = w(1 − w) = %s. "
                                  "Unscaled, [0, %d, %d] give w = %s and w(1 − w) = %s: a saturated softmax passes "
                                  "almost no gradient back to its scores, so the keys stop learning."),
                               num(root).c_str(), num(2 * root).c_str(), num(w).c_str(), q.expected_text.c_str(), dk,
                               2 * dk, num(u, 8).c_str(), num(u * (1 - u), 3).c_str());
  return q;
}

// A softmax row and the gradient it passes back to its scores, dL/dS = a ⊙ (g − Σ aᵢgᵢ),
// through the kernel's backward pass: one query, d_k = d_v = 1, the keys are the scores and
// the values are g, so that dL/dA = dO Vᵀ = g for dL/dO = 1.
struct RowGradient {
  attn::HeadTrace forward;
  attn::HeadGrads backward;
};
RowGradient row_gradient(const std::vector<float>& scores, const std::vector<float>& g) {
  attn::Shape s;
  s.nq = 1, s.nk = int(scores.size()), s.dk = 1, s.dv = 1;
  const float one = 1.0f;
  attn::Options o;
  o.scale = 1.0f;
  const attn::Inputs in{s, &one, scores.data(), g.data()};
  const attn::Trace trace = attn::reference_forward(in, o);
  return {trace.at(0, 0), attn::reference_backward(in, o, trace, &one).heads.at(0)};
}

// What scaling does to training: the gradient that reaches the winning score of a scaled row,
// against the same row unscaled (√d_k times larger scores), where the softmax saturates. What
// reaches Q and K is the gradient of q·k: the scaled row's times 1/√d_k, the unscaled row's as is.
Question score_gradient(std::uint32_t seed) {
  std::mt19937 rng(seed);
  static constexpr int kDks[] = {16, 64};
  const int dk = kDks[rng() % 2];
  const int win = int(rng() % 3);
  std::vector<float> scores(3), g(3);
  // The winner leads by 1.5 or more: √d_k times that (6 or more) saturates the unscaled row, as
  // random q and k of d_k = 16 or 64 often do at initialisation (their q·k spreads by √d_k).
  for (int j = 0; j < 3; ++j) {
    const bool w = j == win;
    scores[std::size_t(j)] = w ? 2.0f + 0.5f * float(rng() % 2) : 0.5f * float(rng() % 2);
    g[std::size_t(j)] = w ? 1.0f + 0.5f * float(rng() % 3) : 0.5f * float(rng() % 2);
  }
  const float root = std::sqrt(float(dk));
  std::vector<float> raw;
  for (float x : scores) raw.push_back(x * root);
  const RowGradient scaled = row_gradient(scores, g), unscaled = row_gradient(raw, g);
  const auto weights = [](const RowGradient& r) {
    return std::vector<double>(r.forward.weights.data(), r.forward.weights.data() + r.forward.weights.size());
  };
  const std::vector<double> a = weights(scaled), a_raw = weights(unscaled);
  double mean = 0;  // Σ aᵢgᵢ
  for (std::size_t j = 0; j < 3; ++j) mean += a[j] * g[j];
  const double grad = scaled.backward.d_scores(0, win), grad_raw = unscaled.backward.d_scores(0, win);
  Question q;
  q.text = i18n::format(tr("A query's scores, already divided by √d_k with d_k = %d, are %s, and the loss's gradient "
                           "with respect to its weights is dL/dA = %s. What gradient dL/ds reaches the highest "
                           "score? (within ±0.01)"),
                        dk, list({scores[0], scores[1], scores[2]}, 3).c_str(), list({g[0], g[1], g[2]}, 3).c_str());
  q.expected = {grad};
  q.tolerance = 0.01;
  q.expected_text = num(grad, 3);
  q.explanation = i18n::format(
      tr("Through the softmax's Jacobian, dL/ds_j = a_j (g_j − Σ aᵢgᵢ). a = %s and Σ aᵢgᵢ = %s, so the highest "
         "score gets %s × (%s − %s) = %s, and q·k gets it times 1/√d_k: %s. "
         "Unscaled, the scores are %s: a = %s, and q·k gets %s, %s times less. A softmax that starts saturated "
         "passes almost nothing back to Q and K, so they barely move: why an unscaled run whose scores start large learns slower."),
      list(a, 3).c_str(), num(mean, 3).c_str(), num(a[std::size_t(win)], 3).c_str(), num(g[std::size_t(win)], 3).c_str(),
      num(mean, 3).c_str(), q.expected_text.c_str(), num(grad / root, 3).c_str(),
      list({raw[0], raw[1], raw[2]}, 3).c_str(), list(a_raw, 3).c_str(),
      num(grad_raw, 2).c_str(), num(grad / root / grad_raw, 2).c_str());
  return q;
}

Question score(const Live& live, std::uint32_t seed) {
  const int i = live.query, j = int(seed % std::uint32_t(live.head.scaled.cols()));
  Question q;
  q.text = i18n::format(tr("What is the score of query %s against key %s: their dot product times the scale %s? "
                           "(within ±0.01)"),
                        live.query_label(i).c_str(), live.key_label(j).c_str(), num(live.scale).c_str());
  q.about_screen = true;
  q.expected = {live.head.scaled(i, j)};
  q.tolerance = 0.01;
  q.expected_text = num(q.expected[0]);
  // q_i·k_j written out term by term (at most four terms: wider rows end in "…").
  std::string terms;
  const int dims = int(live.q.cols()), shown = std::min(dims, 4);
  for (int d = 0; d < shown; ++d) terms += (d ? " + " : "") + num(live.q(i, d), 3) + "·" + num(live.k(j, d), 3);
  if (shown < dims) terms += " + …";
  q.explanation = i18n::format(tr("Multiply the vectors entry by entry and add: %s·%s = %s = %s. Times the scale %s: "
                                  "%s. A key pointing the way the query points scores high, a perpendicular one 0."),
                               live.query_label(i).c_str(), live.key_label(j).c_str(), terms.c_str(),
                               num(live.head.raw(i, j)).c_str(), num(live.scale).c_str(), q.expected_text.c_str());
  return q;
}

Question online_softmax(std::uint32_t seed) {
  std::mt19937 rng(seed);
  // A first block of two keys, then a second whose first score raises the running maximum, so
  // the step has to rescale what it kept.
  const std::vector<float> first = {float(rng() % 3), float(rng() % 3)};
  const float m = std::max(first[0], first[1]);
  const std::vector<float> second = {m + 1 + float(rng() % 2), float(rng() % 3)};
  const double sum = std::exp(double(first[0] - m)) + std::exp(double(first[1] - m));
  // The kernel's softmax of all four scores: its row sum, Σ e^(s − max), is what the running
  // sum must be once every key has been seen.
  const attn::HeadTrace all = row_through_kernel({first[0], first[1], second[0], second[1]}, {}, attn::kNegInf);
  const double m2 = all.row_max(0), rescale = std::exp(double(m) - m2);
  Question q;
  q.text = i18n::format(tr("Online softmax: after a first block of keys with scores %s, the running maximum is m = %s "
                           "and the running sum of e^(s − m) is %s. The next block's scores are %s. What is the "
                           "running sum after it? (within ±0.01)"),
                        list({first[0], first[1]}, 3).c_str(), num(m).c_str(), num(sum, 5).c_str(),
                        list({second[0], second[1]}, 3).c_str());
  q.expected = {double(all.row_sum(0))};
  q.tolerance = 0.01;
  q.expected_text = num(q.expected[0]);
  q.explanation = i18n::format(tr("The new maximum is m' = %s. What was summed against m is rescaled: %s · e^(%s − %s) "
                                  "= %s · %s; then the new block's terms are added: + e^(%s − %s) + e^(%s − %s) = %s. "
                                  "It is Σ e^(s − m') over all four keys, as if they had been seen at once."),
                               num(m2).c_str(), num(sum, 5).c_str(), num(m).c_str(), num(m2).c_str(),
                               num(sum, 5).c_str(), num(rescale).c_str(), num(second[0]).c_str(), num(m2).c_str(),
                               num(second[1]).c_str(), num(m2).c_str(), q.expected_text.c_str());
  return q;
}

Question tiled_memory(std::uint32_t seed, int number) {
  // Not 4096: the cost chapter of the lesson works that one out in its text.
  static constexpr int kNs[] = {1024, 2048, 8192, 16384};
  static constexpr int kDvs[] = {64, 128};
  const int n = kNs[seed % 4], dv = kDvs[(seed / 4) % 2];
  constexpr double kMiB = 1024.0 * 1024.0, kFloat = 4;
  const double plain = double(n) * n * kFloat / kMiB, tiled = double(n) * (dv + 2) * kFloat / kMiB;
  Question q;
  if (number % 2 == 0) {
    q.text = i18n::format(tr("One head, n = %d tokens, scores in float32 (4 bytes). How many MiB does the n × n score "
                             "matrix take? (within 1%%)"),
                          n);
    q.expected = {plain};
  } else {
    q.text = i18n::format(tr("One head, n = %d tokens, d_v = %d, float32 (4 bytes). A tiled kernel keeps, for each "
                             "query, a running maximum, a running sum and a running output row of d_v numbers. How "
                             "many MiB is that for all n queries? (within 1%%)"),
                          n, dv);
    q.expected = {tiled};
  }
  q.tolerance = 0.01 * q.expected[0];
  q.expected_text = num(q.expected[0]);
  q.explanation = i18n::format(tr("The score matrix: n × n × 4 bytes = %s MiB (1 MiB = 2^20 bytes). The tiled kernel's "
                                  "running state, with d_v = %d: n × (d_v + 2) × 4 bytes = %s MiB, two numbers a query "
                                  "more than the output itself. Doubling n multiplies the first by 4 and the second by "
                                  "2; the work, every query against every key, is n² either way."),
                               num(plain).c_str(), dv, num(tiled).c_str());
  return q;
}

// The KV cache of one layer under grouped-query attention: K and V, one head per key/value
// head, in float16. Not K's shape, which the heads chapter spells out: what it costs.
Question grouped_kv(std::uint32_t seed) {
  std::mt19937 rng(seed);
  // Query heads and the fewer key/value heads they share, as large models have them (64 and 8 in
  // Llama 2 70B); at least 2 key/value heads, as the sentence's plural says (one, multi-query
  // attention, is the lesson figure's to show).
  static constexpr int kHeads[] = {16, 32, 64};
  // Not powers of two, so that no cache comes out as one of the question's own numbers.
  static constexpr int kNs[] = {1000, 3000, 8000};
  static constexpr int kDks[] = {64, 128};
  const int heads = kHeads[rng() % 3], kv_heads = 2 << (rng() % 3), n = kNs[rng() % 3], dk = kDks[rng() % 2];
  constexpr double kMiB = 1024.0 * 1024.0, kHalf = 2;
  const double cache = 2.0 * kv_heads * n * dk * kHalf / kMiB;  // K and V
  Question q;
  q.text = i18n::format(tr("Grouped-query attention: %d query heads share %d key/value heads, d_k = d_v = %d, and the "
                           "sequence has %d tokens. How many MiB do one layer's cached K and V take in float16 "
                           "(2 bytes)? (within 1%%)"),
                        heads, kv_heads, dk, n);
  q.expected = {cache};
  q.tolerance = 0.01 * cache;
  q.expected_text = num(cache);
  q.explanation = i18n::format(tr("K has one head per key/value head, %d×%d×%d, and V the same: 2 × %d × %d × %d × 2 "
                                  "bytes = %s MiB (1 MiB = 2^20 bytes). Each group of %d query heads reads the same K "
                                  "and V; with a key/value head per query head the cache would be %s MiB, %d times "
                                  "more."),
                               kv_heads, n, dk, kv_heads, n, dk, q.expected_text.c_str(), heads / kv_heads,
                               num(cache * heads / kv_heads).c_str(), heads / kv_heads);
  return q;
}

// A word of distinct letters typed twice, w + " " + w (period L = its length + 1), and a
// character i of the second copy: the key an induction head looks at is i − L + 1, the
// character that followed the same character in the first copy (docs/model.md's induction
// score); i − L, the same character, is the answer of a head that matches but does not copy.
Question induction_key(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string letters = "bcdfghjklmnpqrstvwxz";
  std::shuffle(letters.begin(), letters.end(), rng);
  const std::string word = letters.substr(0, 5 + rng() % 4);
  const std::string text = word + " " + word;
  const int period = int(word.size()) + 1, n = int(text.size());
  // Any character of the second copy but its last (whose key would be the space).
  const int i = period + int(rng() % std::uint32_t(n - 1 - period));
  const int key = i - period + 1;
  Question q;
  q.text = i18n::format(tr("The model reads \"%s\": a word typed twice. Counting positions from 0, the second copy's "
                           "\"%c\" is at position %d. Which position does an induction head look at from there?"),
                        text.c_str(), text[std::size_t(i)], i);
  q.expected = {double(key)};
  q.tolerance = 0;
  q.expected_text = std::to_string(key);
  q.explanation = i18n::format(tr("One copy and its space are L = %d characters, so position %d holds the same "
                                  "character as position %d − %d = %d in the first copy. What came after it there, "
                                  "at %d − %d + 1 = %d, is \"%c\": the head looks there, and its value carries \"%c\" "
                                  "forward as the prediction of the next character. To find it, the key at %d must "
                                  "know the character before it: a head of an earlier layer put it there."),
                               period, i, i, period, i - period, i, period, key, text[std::size_t(key)],
                               text[std::size_t(key)], key);
  return q;
}

// Three heads' OV maps over the characters a, b, c (row s: the logits of a, b, c the head adds
// when it attends to a key holding s; docs/model.md's OV): one copies (its diagonal the
// largest of every row), one writes the next letter (a → b, b → c, c → a), one lowers what it
// reads (its diagonal the smallest of every row). Which copies? Drawn so that only one can.
Question copying_head(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto draw = [&](double lo, double hi) { return std::round((lo + (hi - lo) * double(rng() % 1000) / 999.0) * 10) / 10; };
  enum Kind { copies, next_letter, lowers };
  std::vector<int> kinds = {copies, next_letter, lowers};
  std::shuffle(kinds.begin(), kinds.end(), rng);
  const char* letters = "abc";
  const char* names[] = {"A", "B", "C"};
  Question q;
  std::string maps, working;
  for (int h = 0; h < 3; ++h) {
    std::string rows;
    for (int s = 0; s < 3; ++s) {
      // The marked column of row s (the diagonal, or the next letter's) against the others.
      const int marked = kinds[std::size_t(h)] == next_letter ? (s + 1) % 3 : s;
      std::vector<double> row(3);
      for (int c = 0; c < 3; ++c)
        row[std::size_t(c)] = c != marked ? draw(-1.0, 1.0) : kinds[std::size_t(h)] == lowers ? draw(-3.0, -1.5) : draw(1.5, 3.0);
      rows += i18n::format("%s%c → %s", s ? "; " : "", letters[s], list(row, 2).c_str());
      if (kinds[std::size_t(h)] == copies)
        working += i18n::format("%s%c → %c %s", s ? ", " : "", letters[s], letters[s], num(row[std::size_t(s)], 2).c_str());
    }
    maps += i18n::format(tr("Head %s: %s. "), names[h], rows.c_str());
    q.choices.push_back(names[h]);
    if (kinds[std::size_t(h)] == copies) q.expected = {double(h)};
  }
  const int copier = int(q.expected[0]);
  const int next = int(std::find(kinds.begin(), kinds.end(), next_letter) - kinds.begin());
  const int lower = int(std::find(kinds.begin(), kinds.end(), lowers) - kinds.begin());
  q.text = i18n::format(tr("Three heads' OV maps over the characters a, b, c: row s is what the head adds to the "
                           "logits of [a, b, c] when it attends to a key holding s. %sWhich head copies what it reads?"),
                        maps.c_str());
  q.expected_text = names[copier];
  q.explanation = i18n::format(tr("A head copies when reading s raises s itself the most: its diagonal is the largest "
                                  "entry of every row. Head %s: %s, each its row's largest. Head %s raises the next "
                                  "letter instead (a → b, b → c, c → a); head %s's diagonal is every row's smallest: it "
                                  "lowers what it reads."),
                               names[copier], working.c_str(), names[next], names[lower]);
  return q;
}

// An induction head's scores from one query over five keys (÷ √d_k already), and how much of
// each came through what a previous-token head wrote at that key: a key is W_K times its
// position's stream, a sum of terms, so for a query that stays as it is each score splits into
// a part per term. Switching that head off takes its part out of every score; the softmax of
// what is left (through the kernel) is the weight on the induction key.
Question switch_off(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto draw = [&](double lo, double hi) { return std::round((lo + (hi - lo) * double(rng() % 1000) / 999.0) * 10) / 10; };
  constexpr int kKeys = 5;
  const int key = 1 + int(rng() % 4);
  std::vector<float> scores(kKeys), parts(kKeys), left(kKeys);
  for (int j = 0; j < kKeys; ++j) {
    // The induction key wins with the head on and through it: most of its score is the head's part.
    parts[std::size_t(j)] = float(j == key ? draw(2.0, 3.5) : draw(-0.3, 0.3));
    scores[std::size_t(j)] = float(j == key ? draw(3.0, 4.5) : draw(-0.5, 1.5));
    left[std::size_t(j)] = scores[std::size_t(j)] - parts[std::size_t(j)];
  }
  auto doubles = [](const std::vector<float>& x) { return std::vector<double>(x.begin(), x.end()); };
  const double on = row_through_kernel(scores, {}, attn::kNegInf).weights(0, key);
  const double off = row_through_kernel(left, {}, attn::kNegInf).weights(0, key);
  Question q;
  q.text = i18n::format(tr("An induction head's scores from one query over keys 0 to 4 are %s (already ÷ √d_k); key "
                           "%d is the one after the earlier same character. Of each score, this much came through "
                           "what a previous-token head wrote at that key: %s. That head is switched off, and the query "
                           "stays as it was. What weight does the induction head give key %d now? (within ±0.01)"),
                        list(doubles(scores), 2).c_str(), key, list(doubles(parts), 2).c_str(), key);
  q.expected = {off};
  q.tolerance = 0.01;
  q.expected_text = num(off);
  q.explanation = i18n::format(tr("A key is W_K times its position's input, and that is a sum (the character's embedding, its "
                                  "position, what each earlier head wrote): so each score is a sum of parts, one per term. Switched off, the head's parts "
                                  "leave every score: %s − %s = %s. The softmax of those gives key %d the weight %s, "
                                  "against %s with the head on. The head need not write anything the output reads: it "
                                  "acts through the keys of the head that does."),
                               list(doubles(scores), 2).c_str(), list(doubles(parts), 2).c_str(),
                               list(doubles(left), 2).c_str(), key, q.expected_text.c_str(), num(on).c_str());
  return q;
}

// Reads the numbers of an answer: a number, an array of numbers, or text holding numbers.
bool numbers_of(const nlohmann::json& answer, std::vector<double>& out, std::string& error) {
  auto add = [&](const nlohmann::json& x) {
    if (!x.is_number()) return error = tr("the answer's entries must be numbers"), false;
    out.push_back(x.get<double>());
    return true;
  };
  if (answer.is_array()) {
    for (const auto& x : answer)
      if (!add(x)) return false;
  } else if (answer.is_string()) {
    // In Spanish a comma between digits is the decimal mark ("0,8044"); a point reads too.
    out = text::read_numbers(answer.get<std::string>(), i18n::language() == i18n::Lang::es);
  } else if (!add(answer)) {
    return false;
  }
  if (out.empty()) return error = tr("the answer holds no number"), false;
  for (double x : out)
    if (!std::isfinite(x)) return error = tr("the answer must be finite numbers"), false;
  return true;
}

// [SECTION] the kinds of question

// One row per kind, in the order of QuestionKind (its name is kKindNames'): how a question of
// it is made.
struct KindRow {
  QuestionKind kind;
  Question (*make)(const Live& live, std::uint32_t seed, int number);
};

constexpr KindRow kKinds[] = {
    {QuestionKind::largest_weight, [](const Live& l, std::uint32_t, int) { return largest_weight(l); }},
    {QuestionKind::weight, [](const Live& l, std::uint32_t seed, int) { return weight(l, seed); }},
    {QuestionKind::output_row, [](const Live& l, std::uint32_t, int) { return output_row(l); }},
    {QuestionKind::masked_weight, [](const Live&, std::uint32_t seed, int) { return masked_weight(seed); }},
    {QuestionKind::shape, [](const Live&, std::uint32_t seed, int n) { return shape(seed, n); }},
    {QuestionKind::spread, [](const Live&, std::uint32_t seed, int n) { return spread(seed, n); }},
    {QuestionKind::fill_pitfall, [](const Live&, std::uint32_t seed, int) { return fill_pitfall(seed); }},
    {QuestionKind::stable_softmax, [](const Live&, std::uint32_t seed, int) { return stable_softmax(seed); }},
    {QuestionKind::saturation, [](const Live&, std::uint32_t seed, int) { return saturation(seed); }},
    {QuestionKind::score, [](const Live& l, std::uint32_t seed, int) { return score(l, seed); }},
    {QuestionKind::online_softmax, [](const Live&, std::uint32_t seed, int) { return online_softmax(seed); }},
    {QuestionKind::tiled_memory, [](const Live&, std::uint32_t seed, int n) { return tiled_memory(seed, n); }},
    {QuestionKind::grouped_kv, [](const Live&, std::uint32_t seed, int) { return grouped_kv(seed); }},
    {QuestionKind::score_gradient, [](const Live&, std::uint32_t seed, int) { return score_gradient(seed); }},
    {QuestionKind::induction_key, [](const Live&, std::uint32_t seed, int) { return induction_key(seed); }},
    {QuestionKind::copying_head, [](const Live&, std::uint32_t seed, int) { return copying_head(seed); }},
    {QuestionKind::switch_off, [](const Live&, std::uint32_t seed, int) { return switch_off(seed); }},
};

// QuestionKind's values index the table, and every kind has a name.
constexpr bool in_kind_order() {
  for (std::size_t i = 0; i < std::size(kKinds); ++i)
    if (kKinds[i].kind != QuestionKind(i)) return false;
  return std::size(kKinds) == std::size(kKindNames);
}
static_assert(in_kind_order(), "kKinds lists the kinds in the order of enum QuestionKind, one per name");

}  // namespace

int question_kind_count() { return int(std::size(kKinds)); }

const char* kind_name(QuestionKind kind) { return kKindNames[int(kind)]; }

Question make(QuestionKind kind, const Live& live, std::uint32_t seed, int number) {
  Question q = kKinds[int(kind)].make(live, seed, number);
  // A live question the screen cannot pose (a fully blocked row) becomes one about the mask.
  if (q.text.empty()) q = masked_weight(seed), kind = QuestionKind::masked_weight;
  q.kind = kind;
  q.id = std::string(kind_name(kind)) + "-" + std::to_string(number);
  return q;
}

Verdict check(const Question& q, const nlohmann::json& answer) {
  Verdict v;
  if (!q.choices.empty()) {
    int index = -1;
    if (answer.is_string()) {
      const std::string text = answer.get<std::string>();
      for (std::size_t c = 0; c < q.choices.size(); ++c)
        if (q.choices[c] == text) index = int(c);
    } else if (answer.is_number_integer()) {
      index = answer.get<int>();
    }
    if (index < 0 || index >= int(q.choices.size())) {
      v.error = i18n::format(tr("answer: expected one of the choices (its text or its index from 0 to %d)"),
                             int(q.choices.size()) - 1);
      return v;
    }
    v.correct = std::find(q.expected.begin(), q.expected.end(), double(index)) != q.expected.end();
    return v;
  }
  std::vector<double> got;
  if (!numbers_of(answer, got, v.error)) {
    v.error = i18n::format(tr("answer: %s"), v.error.c_str());
    return v;
  }
  if (got.size() != q.expected.size()) {
    // A shape is always two numbers.
    const char* sentence = q.kind == QuestionKind::shape ? tr("answer: expected %d numbers (rows × columns), got %d")
                           : q.expected.size() == 1 ? tr("answer: expected %d number, got %d")
                                                    : tr("answer: expected %d numbers, got %d");
    v.error = i18n::format(sentence, int(q.expected.size()), int(got.size()));
    return v;
  }
  v.correct = true;
  for (std::size_t e = 0; e < got.size(); ++e) v.correct = v.correct && std::fabs(got[e] - q.expected[e]) <= q.tolerance;
  return v;
}

void Session::next(const Live& live, const std::vector<QuestionKind>& kinds) {
  // Another list starts from its first kind.
  if (kinds != kinds_) kinds_ = kinds, turn_ = 0;
  const int turn = turn_++;
  const QuestionKind kind = kinds.empty() ? QuestionKind(turn % question_kind_count()) : kinds[std::size_t(turn) % kinds.size()];
  ++asked_;
  current_ = make(kind, live, 0x5eed0000u + std::uint32_t(asked_), asked_);
  answered_ = last_correct_ = false;
}

Verdict Session::answer(const nlohmann::json& value) {
  const Verdict v = check(current_, value);
  if (!v.error.empty() || answered_) return v;
  answered_ = true;
  answer_ = value.dump();
  last_correct_ = v.correct;
  right_ += v.correct;
  return v;
}

namespace {
// What a script is told of a question: {id, kind, text, choices?}.
nlohmann::json question_fields(const Question& q) {
  nlohmann::json j = {{"id", q.id}, {"kind", kind_name(q.kind)}, {"text", q.text}};
  if (!q.choices.empty()) j["choices"] = q.choices;
  return j;
}
nlohmann::json verdict_fields(const Question& q, bool correct) {
  return {{"correct", correct}, {"expected", q.expected_text}, {"explanation", q.explanation}};
}
}  // namespace

std::string Session::question_json() const {
  nlohmann::json j = question_fields(current_);
  j.update({{"asked", asked_}, {"right", right_}, {"answered", answered_}});
  return j.dump();
}

std::string Session::verdict_json(const Question& q, const Verdict& v) {
  if (!v.error.empty()) return nlohmann::json{{"error", v.error}}.dump();
  return verdict_fields(q, v.correct).dump();
}

std::string Session::answered_json() const {
  if (!answered_) return "null";
  nlohmann::json j = {{"question", question_fields(current_)}, {"answer", nlohmann::json::parse(answer_)}};
  j.update(verdict_fields(current_, last_correct_));
  return j.dump();
}

}  // namespace practice
