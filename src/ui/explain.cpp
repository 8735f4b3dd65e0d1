#include "explain.h"

#include <algorithm>
#include <cmath>

#include "number_text.h"

namespace ui {

bool nums_fit(const attn::Matrix& m, int r0, int r1, int c0, int c1, int max_chars, std::vector<std::string>& out) {
  out.resize(std::size_t(std::max(0, r1 - r0) * std::max(0, c1 - c0)));
  std::size_t i = 0;
  for (int r = r0; r < r1; ++r)
    for (int c = c0; c < c1; ++c)
      if ((out[i++] = num_fit(m(r, c), max_chars)).empty()) return false;
  return true;
}

std::string dot_terms(const lab::Lab& lab, int i, int j) {
  const int dk = lab.state().dk;
  const int shown = dk <= 6 ? dk : 3;
  std::string text;
  for (int c = 0; c < shown; ++c) {
    if (c) text += " + ";
    const float a = lab.q()(i, c), b = lab.k()(j, c);
    text += num(a) + "×" + (b < 0 ? "(" + num(b) + ")" : num(b));
  }
  if (shown < dk) text += i18n::format(tr(" + … (%d terms)"), dk);
  return text;
}

Projection projection(const lab::Lab& lab, int which) {
  const bool projected = lab.state().projected();
  switch (which) {
    case 0: return {"Q", &lab.q(), projected ? &lab.w_q() : nullptr};
    case 1: return {"K", &lab.k(), projected ? &lab.w_k() : nullptr};
    default: return {"V", &lab.v(), projected ? &lab.w_v() : nullptr};
  }
}

std::string explain_projection(const lab::Lab& lab, int which, int i, int c) {
  const Projection p = projection(lab, which);
  const bool key_rows = which > 0 && lab.state().kind == lab::Attention::cross;
  const std::string cell =
      std::string(p.name) + "[" + (key_rows ? lab.key_label(i) : lab.query_label(i)) + ", " + std::to_string(c) + "]";
  if (!p.w) {
    if (lab.state().kind == lab::Attention::cross) return cell + " = " + num((*p.result)(i, c)) + tr(", given");
    return cell + " = X[" + lab.query_label(i) + ", " + std::to_string(c) + "] = " + num((*p.result)(i, c)) + "\n" +
           tr("(no projections: Q = K = V = X)");
  }
  const attn::Matrix& x = lab.x();
  const int dm = int(x.cols()), shown = dm <= 6 ? dm : 3;
  std::string text = cell + " = x·W_" + p.name + "[:, " + std::to_string(c) + "] = ";
  for (int e = 0; e < shown; ++e) {
    const float b = (*p.w)(e, c);
    text += (e ? " + " : "") + num(x(i, e)) + "×" + (b < 0 ? "(" + num(b) + ")" : num(b));
  }
  if (shown < dm) text += i18n::format(tr(" + … (%d terms)"), dm);
  return text + "\n      = " + num((*p.result)(i, c));
}

std::string explain_angle(const lab::Lab& lab, int i, int j) {
  const auto q = lab.q().row(i), k = lab.k().row(j);
  const float nq = q.norm(), nk = k.norm();
  if (nq == 0 || nk == 0) return tr("|q| or |k| is 0: no direction, the score is 0");
  const float cos = std::clamp(q.dot(k) / (nq * nk), -1.0f, 1.0f);
  const float degrees = std::acos(cos) * 180.0f / 3.14159265f;
  const char* verdict = tr(degrees < 60 ? N_("similar") : degrees > 120 ? N_("opposed") : N_("unrelated"));
  return num(nq) + " × " + num(nk) + " × cos " + num(std::round(degrees)) + "° = " + num(nq * nk * cos) + ", " + verdict;
}

std::string scale_text(const lab::Lab& lab) {
  const lab::State& s = lab.state();
  const std::string dk = std::to_string(s.dk);
  switch (s.scale) {
    case attn::ScaleMode::inv_sqrt_dk: return "1/√d_k = 1/√" + dk + " = " + num(lab.scale());
    case attn::ScaleMode::none: return tr("1 (no scaling)");
    case attn::ScaleMode::inv_dk: return "1/d_k = 1/" + dk + " = " + num(lab.scale());
    case attn::ScaleMode::custom: return i18n::format(tr("%s (custom)"), num(lab.scale()).c_str());
  }
  return num(lab.scale());
}

std::string explain_cell(const lab::Lab& lab, lab::Step stage, int i, int j) {
  const attn::HeadTrace& h = lab.head();
  const std::string ij = "[" + lab.query_label(i) + ", " + lab.key_label(j) + "]";
  switch (stage) {
    case lab::Step::input: return explain_projection(lab, 0, i, j);
    case lab::Step::scores:
      return "S" + ij + " = q·k = " + dot_terms(lab, i, j) + "\n      = " + num(h.raw(i, j));
    case lab::Step::scale:
      return "S" + ij + " × " + tr("scale") + " = " + num(h.raw(i, j)) + " × " + num(lab.scale()) + " = " +
             num(h.scaled(i, j));
    case lab::Step::mask: {
      const std::string reason = lab.mask_reason(i, j);
      if (!reason.empty()) return num(h.scaled(i, j)) + " + (−∞) = −∞\n" + i18n::format(tr("removed, %s"), reason.c_str());
      return num(h.scaled(i, j)) + " + " + num(h.mask(i, j)) + " = " + num(h.masked(i, j)) + "\n" + tr("kept");
    }
    case lab::Step::softmax:
      if (h.row_sum(i) == 0)
        return tr("every key of this row is masked: the weight is 0 (not NaN)");
      return "A" + ij + " = exp(" + num(h.masked(i, j)) + " − " + num(h.row_max(i)) + ") / " +
             num(h.row_sum(i)) + "\n      = " + num(h.exps(i, j)) + " / " + num(h.row_sum(i)) +
             " = " + num(h.weights(i, j));
    case lab::Step::output: {
      // Here j is the output column c: O[i, c] = Σ_k A[i, k] V[k, c].
      std::string text = "O[" + lab.query_label(i) + ", " + std::to_string(j) + "] = Σ A·V = ";
      const int nk = lab.state().nk, shown = nk <= 6 ? nk : 3;
      for (int k = 0; k < shown; ++k)
        text += (k ? " + " : "") + num(h.weights(i, k)) + "×" + num(lab.v()(k, j));
      if (shown < nk) text += " + …";
      return text + "\n      = " + num(h.output(i, j));
    }
  }
  return "";
}

bool loaded_self_attention(const lab::State& s) {
  return !s.source.empty() && !s.query_tokens.empty() && s.query_tokens == s.key_tokens;
}

}  // namespace ui
