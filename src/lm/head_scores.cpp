#include "head_scores.h"

#include <stdexcept>

namespace lm {

double previous_token_score(const Matrix& a) {
  const int n = int(a.rows());
  if (n < 2) throw std::invalid_argument("previous-token score: the text needs at least 2 characters");
  double sum = 0;
  for (int i = 1; i < n; ++i) sum += a(i, i - 1);
  return sum / (n - 1);
}

double induction_score(const Matrix& a, int period) {
  const int n = int(a.rows());
  if (period < 1 || period >= n)
    throw std::invalid_argument("induction score: the period must be from 1 to " + std::to_string(n - 1));
  double sum = 0;
  for (int i = period; i < n; ++i) sum += a(i, i - period + 1);
  return sum / (n - period);
}

CopyLoss copy_loss(const std::vector<double>& loss, int period) {
  const int n = int(loss.size()) + 1;
  if (period < 1 || n < period + 2)
    throw std::invalid_argument("copy loss: a text of " + std::to_string(n) + " characters has no second copy of period " +
                                std::to_string(period));
  CopyLoss c;
  int count = 0;
  for (int t = period + 1; t <= n - 1; ++t, ++count) {
    c.first += loss[t - period - 1];
    c.second += loss[t - 1];
  }
  c.first /= count;
  c.second /= count;
  return c;
}

Matrix uniform_map(int n) {
  Matrix a = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) a.row(i).head(i + 1).setConstant(1.0f / float(i + 1));
  return a;
}

std::string head_label(double previous_token, double induction) {
  std::string label;
  if (previous_token >= kPreviousToken) label = "previous-token";
  if (induction >= kInduction) label += std::string(label.empty() ? "" : ", ") + "induction";
  return label;
}

}  // namespace lm
