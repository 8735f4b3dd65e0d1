// Practice mode's questions (issue 14): each is generated from the configuration on screen or
// from a seeded one, and answered by the kernel, never by a number copied from a lesson text;
// after an answer the learner sees the expected value and the arithmetic that gives it. They
// cover what the lesson's quizzes and practice problems ask: the largest weight, a weight, an
// output row, what a masked cell becomes, the shape of S, the spread of q·k at a given d_k,
// masking with −1 instead of −∞, the max-subtraction trick, and why saturation stops gradients.
// No UI: the model layer keeps a Session, the views and the page API read it.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "reference.h"

namespace practice {

enum class QuestionKind {
  largest_weight,  // which key the selected query weights most (live)
  weight,          // one weight of the selected query's row, within ±0.01 (live)
  output_row,      // the selected query's output row, within ±0.02 each (live)
  masked_weight,   // what a blocked cell's weight becomes (live when something is blocked)
  shape,           // the shape of S or of the output for given shapes
  spread,          // the standard deviation of q·k, q·k/√d_k or q·k/d_k at a d_k
  fill_pitfall,    // the weight a key keeps when the mask adds −1 instead of −∞
  stable_softmax,  // the softmax of large scores, by subtracting the row maximum
  saturation,      // the softmax's derivative at the winning key, unscaled against 1/√d_k
};
// A new kind is an enumerator here, its row in practice.cpp's table and the function that
// makes its questions; the session asks every kind in turn, counted from that table.
int question_kind_count();
const char* kind_name(QuestionKind kind);

// What the walkthrough shows, for the questions about it.
struct Live {
  const attn::Matrix& q;
  const attn::Matrix& k;
  const attn::Matrix& v;
  const attn::HeadTrace& head;
  float scale;
  int query;  // the selected query row
  std::function<std::string(int)> query_label, key_label;
  std::function<std::string(int, int)> mask_reason;  // why (i, j) is blocked, "" if it is not
};

struct Question {
  std::string id;  // "<kind>-<number in the session>"
  QuestionKind kind = QuestionKind::shape;
  std::string text;
  std::vector<std::string> choices;  // a choice question's options; empty: type a value
  // A choice: the indices accepted (ties); a shape: rows, cols; otherwise the numbers.
  std::vector<double> expected;
  double tolerance = 0;  // per number, absolute
  std::string expected_text;
  std::string explanation;
  bool about_screen = false;  // about the configuration on screen: the walkthrough shows its answer
};

// A question of `kind` about `live` (or a configuration drawn from `seed`).
Question make(QuestionKind kind, const Live& live, std::uint32_t seed, int number);

struct Verdict {
  bool correct = false;
  std::string error;  // "" or one sentence on why the answer could not be read (no verdict)
};
// `answer`: a number, an array of numbers, a choice's index or text, or a shape such as "8x12"
// or [8, 12] (a number given as text is read too).
Verdict check(const Question& q, const nlohmann::json& answer);

// The questions of one sitting: each kind in turn, a score, the last verdict.
class Session {
 public:
  const Question& current() const { return current_; }
  bool answered() const { return answered_; }
  bool last_correct() const { return last_correct_; }
  int asked() const { return asked_; }
  int right() const { return right_; }
  // A new question about `live`, of the next kind in turn.
  void next(const Live& live);
  // Checks the answer to the current question; once answered, later answers are not scored.
  Verdict answer(const nlohmann::json& value);

  // attentionLab.practice(): {id, kind, text, choices?, asked, right}; and the verdict of
  // attentionLab.answer(): {correct, expected, explanation} or {error}.
  std::string question_json() const;
  static std::string verdict_json(const Question& q, const Verdict& v);

 private:
  Question current_;
  bool answered_ = false, last_correct_ = false;
  int asked_ = 0, right_ = 0, turn_ = 0;
};

}  // namespace practice
