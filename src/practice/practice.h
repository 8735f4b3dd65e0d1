// Practice mode's questions (issue 14): each is generated from the configuration on screen or
// from a seeded one, and answered by the kernel, never by a number copied from a lesson text;
// after an answer the learner sees the expected value and the arithmetic that gives it. They
// cover what the lesson's quizzes and practice problems ask: the largest weight, a weight, an
// output row, an open key's weight beside a masked one, the shape of S, the spread of q·k at a
// given d_k and variance, masking with −1 instead of −∞, the max-subtraction trick, why
// saturation stops gradients, and the KV cache under grouped queries.
// No UI: the model layer keeps a Session, the views and the page API read it.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "kinds.h"  // QuestionKind and its names
#include "reference.h"

namespace practice {

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

// The questions of one sitting: each kind asked in turn, a score, the last verdict.
class Session {
 public:
  const Question& current() const { return current_; }
  bool answered() const { return answered_; }
  bool last_correct() const { return last_correct_; }
  int asked() const { return asked_; }
  int right() const { return right_; }
  // A new question about `live`, of the next kind in turn among `kinds` (the link's `ask`;
  // empty: every kind); a list other than the last one's starts from its first kind.
  void next(const Live& live, const std::vector<QuestionKind>& kinds = {});
  // Checks the answer to the current question; once answered, later answers are not scored.
  Verdict answer(const nlohmann::json& value);

  // attentionLab.practice(): {id, kind, text, choices?, asked, right, answered}; the verdict of
  // attentionLab.answer(): {correct, expected, explanation} or {error}; and, once the current
  // question is answered, the page's `answer` event: {question: {id, kind, text, choices?},
  // answer (as given), correct, expected, explanation}.
  std::string question_json() const;
  static std::string verdict_json(const Question& q, const Verdict& v);
  std::string answered_json() const;

 private:
  Question current_;
  std::string answer_;  // the scored answer to current_, as JSON text
  bool answered_ = false, last_correct_ = false;
  int asked_ = 0, right_ = 0, turn_ = 0;
  std::vector<QuestionKind> kinds_;  // the kinds asked in turn (empty: all), turn_ counted in them
};

}  // namespace practice
