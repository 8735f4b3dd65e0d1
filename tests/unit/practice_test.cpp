// Practice mode's questions: every kind's expected answer recomputed here in float64 from what
// the question states (its text, or the live matrices it is about), right and wrong answers,
// unreadable answers, and a session's score.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "float64_attention.h"
#include "number_text.h"
#include "i18n.h"
#include "practice.h"

namespace {

// The integers and decimals of a question's text, in order (to recompute what it states).
std::vector<double> numbers_in(const std::string& text) {
  std::vector<double> out;
  static const std::regex number(R"((-?\d+(\.\d+)?))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

std::vector<double> softmax64(const std::vector<double>& s) {
  double m = -HUGE_VAL, sum = 0;
  for (double x : s) m = std::max(m, x);
  std::vector<double> w;
  for (double x : s) w.push_back(std::exp(x - m)), sum += std::exp(x - m);
  for (double& x : w) x /= sum;
  return w;
}

// A live configuration: 4 queries, 5 keys, d_k 3, d_v 2, seeded values, 1/√d_k; optionally a
// causal mask. Its trace comes from the kernel; the tests recompute it in float64.
struct Screen {
  attn::Matrix q{4, 3}, k{5, 3}, v{5, 2};
  float scale = 1.0f / std::sqrt(3.0f);
  bool causal = false;
  attn::HeadTrace head;
  int query = 2;

  explicit Screen(bool causal_mask) : causal(causal_mask) {
    for (int e = 0; e < q.size(); ++e) q.data()[e] = float(std::sin(1.3 * e + 0.2));
    for (int e = 0; e < k.size(); ++e) k.data()[e] = float(std::cos(0.7 * e));
    for (int e = 0; e < v.size(); ++e) v.data()[e] = float(0.5 * e - 2);
    attn::Options o;
    o.scale = scale;
    if (causal) o.causal = attn::Causal::top_left;
    head = attn::reference_forward({{1, 1, 1, 4, 5, 3, 2}, q.data(), k.data(), v.data()}, o).at(0, 0);
  }
  practice::Live live() const {
    return {q, k, v, head, scale, query, [](int i) { return "q" + std::to_string(i); },
            [](int j) { return "k" + std::to_string(j); },
            [this](int i, int j) { return causal && j > i ? std::string("causal") : std::string(); }};
  }
  testing_ref::Result64 float64() const {
    testing_ref::Problem64 p;
    p.nq = 4, p.nk = 5, p.dk = 3, p.dv = 2, p.scale = 1.0 / std::sqrt(3.0);
    p.causal_offset_enabled = causal ? 1 : 0;
    p.q.assign(q.data(), q.data() + q.size());
    p.k.assign(k.data(), k.data() + k.size());
    p.v.assign(v.data(), v.data() + v.size());
    return testing_ref::attention64(p);
  }
};

void expect_right_and_wrong(const practice::Question& q, const nlohmann::json& right, const nlohmann::json& wrong) {
  EXPECT_TRUE(practice::check(q, right).correct) << q.text << " answered " << right.dump();
  EXPECT_FALSE(practice::check(q, wrong).correct) << q.text << " answered " << wrong.dump();
  EXPECT_FALSE(q.explanation.empty());
}

TEST(Practice, LargestWeightIsTheFloat64Argmax) {
  const Screen screen(false);
  const practice::Question q = practice::make(practice::QuestionKind::largest_weight, screen.live(), 1, 1);
  const auto want = screen.float64();
  int best = 0;
  for (int j = 1; j < 5; ++j)
    if (want.weights[2 * 5 + j] > want.weights[2 * 5 + best]) best = j;
  ASSERT_EQ(q.choices.size(), 5u);
  expect_right_and_wrong(q, "k" + std::to_string(best), (best + 1) % 5);
  EXPECT_TRUE(practice::check(q, best).correct);  // by index too
}

TEST(Practice, WeightAndOutputRowMatchFloat64) {
  const Screen screen(false);
  const auto want = screen.float64();
  for (std::uint32_t seed = 0; seed < 5; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::weight, screen.live(), seed, 1);
    const std::vector<double> n = numbers_in(q.text);  // "query q2 give key kJ"
    const int j = int(n.at(1));
    const double w = want.weights[2 * 5 + j];
    expect_right_and_wrong(q, w + 0.009, w + 0.02);
  }
  const practice::Question row = practice::make(practice::QuestionKind::output_row, screen.live(), 0, 1);
  const std::vector<double> o = {want.output[2 * 2], want.output[2 * 2 + 1]};
  expect_right_and_wrong(row, o, nlohmann::json({o[0], o[1] + 0.05}));
  EXPECT_TRUE(practice::check(row, std::to_string(o[0]) + ", " + std::to_string(o[1])).correct) << "as text";
}

// A blocked key drops out and the open keys share the row: the asked key's weight from the
// question's own scores, not 0 (what the masks chapter states), nor the unmasked softmax's.
TEST(Practice, TheOpenKeysShareTheRowOfABlockedKey) {
  const Screen screen(true);
  std::set<std::string> texts;
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::masked_weight, screen.live(), seed, 1);
    const std::vector<double> n = numbers_in(q.text);  // "scores are [s0, s1, s2, s3]. … key B … key J"
    const std::vector<double> scores(n.begin(), n.begin() + 4);
    const int blocked = int(n.at(4)), asked = int(n.at(5));
    ASSERT_NE(blocked, asked) << q.text;
    std::vector<double> open;
    for (int j = 0; j < 4; ++j) open.push_back(j == blocked ? -HUGE_VAL : scores[std::size_t(j)]);
    const double want = softmax64(open)[std::size_t(asked)], unmasked = softmax64(scores)[std::size_t(asked)];
    EXPECT_GT(want, 0.01) << "an open key's weight is not 0: " << q.text;
    EXPECT_GT(std::fabs(unmasked - want), 0.05) << "leaving the key in is a wrong answer: " << q.text;
    expect_right_and_wrong(q, want + 0.009, unmasked);
    texts.insert(q.text);
  }
  EXPECT_GT(texts.size(), 5u) << "Next question asks about another row";
}

TEST(Practice, ShapesFollowFromTheStatedShapes) {
  const Screen screen(false);
  for (int number = 1; number <= 6; ++number) {
    const practice::Question q = practice::make(practice::QuestionKind::shape, screen.live(), 100 + number, number);
    const std::vector<double> n = numbers_in(q.text);  // nq, dk, nk, dk, nk, dv, ...
    const bool output = q.text.find("output") != std::string::npos;
    const int rows = int(n.at(0)), cols = int(output ? n.at(5) : n.at(2));
    const std::string right = std::to_string(rows) + "x" + std::to_string(cols);
    expect_right_and_wrong(q, right, std::to_string(cols) + "×" + std::to_string(rows));
    EXPECT_TRUE(practice::check(q, nlohmann::json({rows, cols})).correct);
    EXPECT_TRUE(practice::check(q, "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")").correct);
  }
}

TEST(Practice, SpreadIsTheSquareRootOfDk) {
  const Screen screen(false);
  for (int number = 0; number < 3; ++number) {
    const practice::Question q = practice::make(practice::QuestionKind::spread, screen.live(), 1, number);
    const std::vector<double> n = numbers_in(q.text);  // "d_k = D … mean 0 and variance V"
    const double dk = n.at(0), variance = n.at(2);
    // q·k sums d_k products of two independent variables of variance V: each has variance V².
    const double raw = std::sqrt(dk * variance * variance);
    const double want = number == 0 ? raw : number == 1 ? raw / std::sqrt(dk) : raw / dk;
    expect_right_and_wrong(q, want * 1.05, want * 1.3);
  }
}

TEST(Practice, FillPitfallStableSoftmaxAndSaturationFromTheirScores) {
  const Screen screen(false);
  for (std::uint32_t seed = 0; seed < 4; ++seed) {
    const practice::Question fill = practice::make(practice::QuestionKind::fill_pitfall, screen.live(), seed, 1);
    const std::vector<double> s = numbers_in(fill.text);  // the three scores, then −1
    const double masked = softmax64({s.at(0), s.at(1), s.at(2) - 1}).at(2);
    expect_right_and_wrong(fill, masked, 0.0);

    const practice::Question big = practice::make(practice::QuestionKind::stable_softmax, screen.live(), seed, 1);
    const std::vector<double> t = numbers_in(big.text);
    const std::vector<double> w = softmax64({t.at(0), t.at(1), t.at(2)});
    expect_right_and_wrong(big, *std::max_element(w.begin(), w.end()), 1.0 / 3);

    const practice::Question sat = practice::make(practice::QuestionKind::saturation, screen.live(), seed, 1);
    const double dk = numbers_in(sat.text).at(2);  // "[0, d_k, 2·d_k] with d_k = N"
    const double top = softmax64({0, std::sqrt(dk), 2 * std::sqrt(dk)}).at(2);
    expect_right_and_wrong(sat, top * (1 - top), top * (1 - top) + 0.05);
  }
}

// The new kinds, each from what its question states: a score is the float64 dot product times
// the scale; the online softmax's running sum is Σ e^(s − max) over all four scores at once (no
// recurrence); the memories are n² and n(d_v + 2) floats of 4 bytes; K has h_kv heads.
TEST(Practice, ScoreIsTheFloat64DotProductTimesTheScale) {
  const Screen screen(false);
  std::vector<int> keys;
  for (std::uint32_t seed = 0; seed < 5; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::score, screen.live(), seed, 1);
    const int j = int(numbers_in(q.text).at(1));  // "query q2 against key kJ"
    keys.push_back(j);
    double dot = 0;
    for (int d = 0; d < 3; ++d) dot += double(screen.q(2, d)) * double(screen.k(j, d));
    const double want = dot / std::sqrt(3.0);
    expect_right_and_wrong(q, want + 0.009, want + 0.02);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()) - keys.begin(), 5) << "consecutive seeds ask about other keys";
}

TEST(Practice, OnlineSoftmaxRunningSumIsTheWholeRowsSum) {
  const Screen screen(false);
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::online_softmax, screen.live(), seed, 1);
    // "[a, b], … m = M … is L. … scores are [c, d]. … (within ±0.01)"
    const std::vector<double> n = numbers_in(q.text);
    const std::vector<double> s = {n.at(0), n.at(1), n.at(4), n.at(5)};
    const double top = *std::max_element(s.begin(), s.end());
    EXPECT_GT(s[2], std::max(s[0], s[1])) << "the second block raises the maximum: " << q.text;
    double sum = 0;
    for (double x : s) sum += std::exp(x - top);
    // Forgetting to rescale the first block's sum is the mistake this question is about.
    const double unscaled = n.at(3) + std::exp(s[2] - top) + std::exp(s[3] - top);
    expect_right_and_wrong(q, sum, unscaled);
  }
}

TEST(Practice, TiledMemoryIsNSquaredAgainstNTimesDvPlusTwo) {
  const Screen screen(false);
  for (int number = 0; number < 16; ++number) {
    const practice::Question q =
        practice::make(practice::QuestionKind::tiled_memory, screen.live(), std::uint32_t(3 * number + 1), number);
    const std::vector<double> n = numbers_in(q.text);  // "n = N tokens[, d_v = D], float32 (4 bytes)"
    const double tokens = n.at(0), bytes_per_float = 4, mib = 1 << 20;
    // The lesson's cost chapter works out n = 4096 in its text: its check asks another n.
    EXPECT_NE(tokens, 4096) << q.text;
    const bool matrix = q.text.find("n × n") != std::string::npos;
    const double want = matrix ? tokens * tokens * bytes_per_float / mib : tokens * (n.at(1) + 2) * bytes_per_float / mib;
    expect_right_and_wrong(q, want * 1.005, want * 1.1);
  }
}

TEST(Practice, GroupedKvCacheHasTheKeyValueHeads) {
  const Screen screen(false);
  for (std::uint32_t seed = 0; seed < 6; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::grouped_kv, screen.live(), seed, 1);
    const std::vector<double> n = numbers_in(q.text);  // h, h_kv, d_k, tokens, then float16's 16 and 2 bytes
    const int heads = int(n.at(0)), kv = int(n.at(1)), dk = int(n.at(2)), tokens = int(n.at(3));
    EXPECT_EQ(heads % kv, 0);
    EXPECT_LT(kv, heads) << "heads are shared";
    EXPECT_GE(kv, 2) << "the sentence says \"key/value heads\": " << q.text;
    // K and V, each kv × tokens × d_k, 2 bytes a number, in MiB.
    const double cache = 2.0 * kv * tokens * dk * 2 / (1 << 20);
    expect_right_and_wrong(q, cache * 1.005, cache * heads / kv);
  }
}

// The induction head's key, from the question's own text: the position after the same
// character's first occurrence (i − L + 1), not the occurrence itself (i − L).
TEST(Practice, InductionKeyIsAfterTheFirstOccurrence) {
  const Screen screen(false);
  std::set<std::string> texts;
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::induction_key, screen.live(), seed, 1);
    // "… reads "w w": … the second copy's "c" is at position I. …"
    const std::size_t open = q.text.find('"'), close = q.text.find('"', open + 1);
    const std::string text = q.text.substr(open + 1, close - open - 1);
    texts.insert(text);
    const std::size_t space = text.find(' ');
    ASSERT_NE(space, std::string::npos) << q.text;
    ASSERT_EQ(text.substr(0, space), text.substr(space + 1)) << "a word typed twice: " << q.text;
    const int i = int(numbers_in(q.text.substr(q.text.find("position "))).at(0));
    const int period = int(space) + 1;
    ASSERT_GE(i, period) << "in the second copy";
    ASSERT_LT(i, int(text.size()) - 1);
    // The first copy's occurrence of the same character (letters are distinct in the word).
    const int first = int(text.find(text[std::size_t(i)]));
    EXPECT_EQ(first, i - period);
    expect_right_and_wrong(q, first + 1, first);
  }
  EXPECT_GT(texts.size(), 4u) << "Next question asks about another text";
}

// Which head copies: read from the question's own maps, the head whose diagonal is the strict
// maximum of every row (and only one such head), not the one that raises the next letter.
TEST(Practice, TheCopyingHeadIsTheOneWhoseDiagonalWinsEveryRow) {
  const Screen screen(false);
  std::set<double> answers;
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::copying_head, screen.live(), seed, 1);
    ASSERT_EQ(q.choices.size(), 3u) << q.text;
    // "Head A: a → [x, y, z]; b → […]; c → […]. Head B: …": nine numbers a head, after its letter.
    std::vector<int> copiers;
    for (int h = 0; h < 3; ++h) {
      const std::size_t at = q.text.find("Head " + q.choices[std::size_t(h)] + ":");
      ASSERT_NE(at, std::string::npos) << q.text;
      const std::vector<double> n = numbers_in(q.text.substr(at));
      bool copies = true;
      for (int s = 0; s < 3; ++s)
        for (int c = 0; c < 3; ++c)
          if (c != s && n.at(std::size_t(3 * s + c)) >= n.at(std::size_t(3 * s + s))) copies = false;
      if (copies) copiers.push_back(h);
    }
    ASSERT_EQ(copiers.size(), 1u) << "one head copies: " << q.text;
    answers.insert(copiers[0]);
    expect_right_and_wrong(q, q.choices[std::size_t(copiers[0])], (copiers[0] + 1) % 3);
  }
  EXPECT_EQ(answers.size(), 3u) << "the copying head is not always the same letter";
}

// Switching off a head that wrote into the keys: the float64 softmax of the scores minus its
// parts, read from the question; leaving the scores as they were (its direct part is no matter
// here) is wrong.
TEST(Practice, SwitchingOffAHeadTakesItsPartOutOfEveryScore) {
  const Screen screen(false);
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::switch_off, screen.live(), seed, 1);
    // "… keys 0 to 4 are [s0, …, s4] (already ÷ √d_k); key K … : [p0, …, p4]. …"
    const std::vector<double> n = numbers_in(q.text);
    const std::vector<double> s(n.begin() + 2, n.begin() + 7);
    const int key = int(n.at(7));
    const std::vector<double> p(n.begin() + 8, n.begin() + 13);
    std::vector<double> left;
    for (int j = 0; j < 5; ++j) left.push_back(s[std::size_t(j)] - p[std::size_t(j)]);
    const double off = softmax64(left)[std::size_t(key)], on = softmax64(s)[std::size_t(key)];
    ASSERT_GT(on - off, 0.05) << "switching it off changes the answer: " << q.text;
    expect_right_and_wrong(q, off, on);
  }
}

// What scaling does to training: the gradient a(g − Σ aᵢgᵢ) reaching the top score, from the
// question's own numbers; and the explanation's claim that the same row unscaled passes less to
// q·k (its gradient through q·k/√d_k is the scaled row's divided by √d_k).
TEST(Practice, ScoreGradientIsTheSoftmaxJacobianTimesG) {
  const Screen screen(false);
  std::vector<int> dks;
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const practice::Question q = practice::make(practice::QuestionKind::score_gradient, screen.live(), seed, 1);
    const std::vector<double> n = numbers_in(q.text);  // "d_k = D, are [s0, s1, s2] … dL/dA = [g0, g1, g2]"
    const double dk = n.at(0);
    const std::vector<double> s = {n.at(1), n.at(2), n.at(3)}, g = {n.at(4), n.at(5), n.at(6)};
    const auto gradient_at_top = [&](const std::vector<double>& scores) {
      const std::vector<double> a = softmax64(scores);
      const std::size_t top = std::size_t(std::max_element(scores.begin(), scores.end()) - scores.begin());
      double mean = 0;
      for (std::size_t j = 0; j < 3; ++j) mean += a[j] * g[j];
      return a[top] * (g[top] - mean);
    };
    const double want = gradient_at_top(s);
    EXPECT_GT(std::fabs(want), 0.02) << "a question whose answer is not about zero: " << q.text;
    expect_right_and_wrong(q, want + 0.009, want - 0.03);
    std::vector<double> raw;
    for (double x : s) raw.push_back(x * std::sqrt(dk));
    EXPECT_GT(want / std::sqrt(dk), 2 * std::fabs(gradient_at_top(raw))) << "unscaled passes less to q·k: " << q.text;
    // The unscaled row's weights as the explanation writes them: a saturated winner under 1 is
    // not written "1" (it read as exactly one-hot), and each is its float64 value to the digits shown.
    const std::string unscaled = q.explanation.substr(q.explanation.find("Unscaled"));
    const std::vector<double> written = text::read_numbers(unscaled.substr(unscaled.find("a = ")), false);
    const std::vector<double> a_raw = softmax64(raw);
    for (std::size_t j = 0; j < 3; ++j) {
      if (a_raw[j] < 1 - 1e-6) EXPECT_LT(written.at(j), 1.0) << q.explanation;
      EXPECT_NEAR(written.at(j), a_raw[j], 5e-3 * a_raw[j]) << q.explanation;  // 3 digits or more
    }
    dks.push_back(int(dk));
  }
  EXPECT_NE(std::count(dks.begin(), dks.end(), 16), 0);
  EXPECT_NE(std::count(dks.begin(), dks.end(), 64), 0);
}

// A Spanish reader's decimal comma: "0,8044" is one number under lang=es (a point still reads),
// and two in English, where the comma separates numbers.
TEST(Practice, SpanishAnswersReadTheDecimalComma) {
  const Screen screen(false);
  const practice::Question q = practice::make(practice::QuestionKind::weight, screen.live(), 0, 1);
  const double w = q.expected.at(0);
  char point[32];
  std::snprintf(point, sizeof point, "%.4f", w);
  std::string comma = point;
  comma[comma.find('.')] = ',';
  i18n::set_language(i18n::Lang::es);
  EXPECT_TRUE(practice::check(q, comma).correct) << comma;
  EXPECT_TRUE(practice::check(q, std::string(point)).correct) << point;
  const practice::Question row = practice::make(practice::QuestionKind::output_row, screen.live(), 0, 1);
  const auto want = screen.float64();
  char two[64];
  std::snprintf(two, sizeof two, "%.3f; %.3f", want.output[4], want.output[5]);
  std::string typed = two;
  for (char& c : typed) c = c == '.' ? ',' : c;
  EXPECT_TRUE(practice::check(row, typed).correct) << typed;
  i18n::set_language(i18n::Lang::en);
  const practice::Verdict english = practice::check(q, comma);
  EXPECT_FALSE(english.correct);
  EXPECT_NE(english.error.find("expected 1 number, got 2"), std::string::npos) << english.error;
}

TEST(Practice, UnreadableAnswersNameTheField) {
  const Screen screen(false);
  const practice::Question number = practice::make(practice::QuestionKind::weight, screen.live(), 0, 1);
  for (const nlohmann::json& bad : {nlohmann::json("no number here"), nlohmann::json({1, 2}), nlohmann::json(nullptr),
                                    nlohmann::json({{"x", 1}})}) {
    const practice::Verdict v = practice::check(number, bad);
    EXPECT_FALSE(v.correct);
    EXPECT_EQ(v.error.rfind("answer: ", 0), 0u) << bad.dump() << " → " << v.error;
  }
  const practice::Question choice = practice::make(practice::QuestionKind::largest_weight, screen.live(), 0, 1);
  EXPECT_FALSE(practice::check(choice, 17).error.empty());
  EXPECT_FALSE(practice::check(choice, "k99").error.empty());
}

TEST(Practice, SessionScoresEachQuestionOnceAndCyclesEveryKind) {
  const Screen screen(false);
  practice::Session session;
  std::vector<std::string> kinds;
  for (int n = 0; n < practice::question_kind_count(); ++n) {
    session.next(screen.live());
    kinds.push_back(nlohmann::json::parse(session.question_json())["kind"]);
  }
  for (int n = 0; n < practice::question_kind_count(); ++n)
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), practice::kind_name(practice::QuestionKind(n))), kinds.end());

  session.next(screen.live());  // largest_weight again
  const auto want = screen.float64();
  int best = 0;
  for (int j = 1; j < 5; ++j)
    if (want.weights[10 + j] > want.weights[10 + best]) best = j;
  EXPECT_TRUE(session.answer(best).correct);
  EXPECT_TRUE(session.answer(best).correct);  // answering again is not scored twice
  EXPECT_EQ(session.right(), 1);
  EXPECT_EQ(session.asked(), practice::question_kind_count() + 1);
  const nlohmann::json verdict = nlohmann::json::parse(
      practice::Session::verdict_json(session.current(), session.answer(best)));
  EXPECT_EQ(verdict["expected"], "k" + std::to_string(best));
  EXPECT_TRUE(verdict["explanation"].is_string());
}

// The link's `ask`: only the kinds listed, in the order given, in turn; a new list starts from
// its first kind; every question of a screen-free kind is one of them.
TEST(Practice, SessionAsksOnlyTheKindsListed) {
  using K = practice::QuestionKind;
  const Screen screen(false);
  practice::Session session;
  const std::vector<K> kinds{K::spread, K::largest_weight};
  std::vector<std::string> asked;
  for (int n = 0; n < 5; ++n) {
    session.next(screen.live(), kinds);
    asked.push_back(nlohmann::json::parse(session.question_json())["kind"]);
  }
  EXPECT_EQ(asked, (std::vector<std::string>{"spread", "largest_weight", "spread", "largest_weight", "spread"}));
  session.next(screen.live(), {K::saturation});
  EXPECT_EQ(session.current().kind, K::saturation);
  session.next(screen.live(), {K::weight, K::shape});
  EXPECT_EQ(session.current().kind, K::weight);  // from the new list's first kind
  session.next(screen.live());                   // no list: every kind, from the first
  EXPECT_EQ(session.current().kind, K::largest_weight);
  EXPECT_EQ(session.asked(), 8);
}

}  // namespace
