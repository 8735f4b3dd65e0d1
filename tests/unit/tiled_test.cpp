// The tiled kernel against an attention written here in float64, straight from the formula,
// over loops of random shapes and options (ggml's test-backend-ops style): d = 1, odd sizes,
// one query, long rows, n_q ≠ n_k, d_v ≠ d_k, grouped-query heads, both causal alignments,
// boolean and additive broadcast masks, padding, fully masked rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "attention.h"
#include "tiled.h"

namespace attn {
namespace {

struct Case {
  Shape shape;
  std::vector<float> q, k, v;
  Options options;

  Inputs inputs() const { return {shape, q.data(), k.data(), v.data()}; }
  std::string describe() const {
    const Shape& s = shape;
    const char* causal[] = {"none", "top_left", "bottom_right"};
    const char* mask[] = {"none", "boolean", "additive"};
    return "batch " + std::to_string(s.batch) + " heads " + std::to_string(s.heads) + "/" +
           std::to_string(s.kv_heads) + " nq " + std::to_string(s.nq) + " nk " + std::to_string(s.nk) +
           " dk " + std::to_string(s.dk) + " dv " + std::to_string(s.dv) + " causal " +
           causal[int(options.causal)] + " mask " + mask[int(options.mask.kind)];
  }
};

// Attention in double precision, written from the definition: every score, its row's
// softmax over the keys allowed, the weighted sum; 0 for a row with no allowed key.
std::vector<double> attention_f64(const Case& c) {
  const Shape& s = c.shape;
  const Options& o = c.options;
  const Mask& mk = o.mask;
  std::vector<double> out(s.out_size(), 0.0);
  std::vector<double> score(s.nk);
  std::vector<bool> allowed(s.nk);
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int g = h / (s.heads / s.kv_heads);
      for (int i = 0; i < s.nq; ++i) {
        double mx = -INFINITY;
        for (int j = 0; j < s.nk; ++j) {
          double dot = 0.0;
          for (int d = 0; d < s.dk; ++d)
            dot += double(c.q[((std::size_t(b) * s.heads + h) * s.nq + i) * s.dk + d]) *
                   double(c.k[((std::size_t(b) * s.kv_heads + g) * s.nk + j) * s.dk + d]);
          bool ok = o.causal == Causal::none ||
                    (o.causal == Causal::top_left ? j <= i : j <= i + (s.nk - s.nq));
          double add = 0.0;
          if (!mk.empty()) {
            // numpy broadcasting: an axis of size 1 repeats.
            const int idx[4] = {b, h, i, j};
            std::size_t at = 0;
            for (int a = 0; a < 4; ++a) at = at * mk.dims[a] + (mk.dims[a] == 1 ? 0 : idx[a]);
            if (mk.kind == Mask::Kind::boolean) ok = ok && mk.values[at] != 0.0f;
            else add = mk.values[at];
          }
          allowed[j] = ok && std::isfinite(add);
          score[j] = double(o.scale) * dot + add;
          if (allowed[j]) mx = std::max(mx, score[j]);
        }
        double sum = 0.0;
        for (int j = 0; j < s.nk; ++j) sum += allowed[j] ? std::exp(score[j] - mx) : 0.0;
        if (sum == 0.0) continue;  // every key blocked: the row stays 0
        double* row = out.data() + ((std::size_t(b) * s.heads + h) * s.nq + i) * s.dv;
        for (int j = 0; j < s.nk; ++j) {
          if (!allowed[j]) continue;
          const double w = std::exp(score[j] - mx) / sum;
          for (int d = 0; d < s.dv; ++d)
            row[d] += w * double(c.v[((std::size_t(b) * s.kv_heads + g) * s.nk + j) * s.dv + d]);
        }
      }
    }
  return out;
}

// llm.c's validate_result: the tolerance grows with the size of the expected value.
void expect_close(const Case& c, const std::vector<float>& got) {
  const std::vector<double> want = attention_f64(c);
  ASSERT_EQ(got.size(), want.size());
  int reported = 0;
  for (std::size_t n = 0; n < want.size(); ++n) {
    const double tol = 2e-5 + 1e-4 * std::fabs(want[n]);
    if (!(std::fabs(got[n] - want[n]) <= tol) && reported++ < 5)
      ADD_FAILURE() << c.describe() << ": output[" << n << "] = " << got[n] << ", expected "
                    << want[n] << " ± " << tol;
  }
}

std::vector<float> run_tiled(const Case& c) {
  std::vector<float> out(c.shape.out_size(), -12345.0f);  // garbage the kernel must overwrite
  tiled_forward(c.inputs(), c.options, out.data());
  return out;
}

class Random {
 public:
  explicit Random(unsigned seed) : gen_(seed) {}
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(gen_); }
  std::vector<float> values(std::size_t n, float amplitude) {
    std::vector<float> x(n);
    for (float& e : x) e = uniform(-amplitude, amplitude);
    return x;
  }

 private:
  std::mt19937 gen_;
};

Case make_case(Random& rnd, Shape s, float amplitude = 1.0f) {
  Case c;
  c.shape = s;
  c.q = rnd.values(s.q_size(), amplitude);
  c.k = rnd.values(s.k_size(), amplitude);
  c.v = rnd.values(s.v_size(), 1.0f);
  c.options.scale = 1.0f / std::sqrt(float(s.dk));
  return c;
}

// A mask over (batch, heads, nq, nk) whose axes each either span or repeat (size 1).
void add_random_mask(Random& rnd, Case& c, Mask::Kind kind) {
  const Shape& s = c.shape;
  Mask& m = c.options.mask;
  m.kind = kind;
  const int full[4] = {s.batch, s.heads, s.nq, s.nk};
  std::size_t n = 1;
  for (int a = 0; a < 4; ++a) n *= m.dims[a] = rnd.chance(0.5) ? full[a] : 1;
  m.values.resize(n);
  for (float& x : m.values) {
    if (kind == Mask::Kind::boolean) x = rnd.chance(0.8) ? 1.0f : 0.0f;
    else x = rnd.chance(0.1) ? kNegInf : rnd.uniform(-3.0f, 3.0f);
  }
}

Shape random_shape(Random& rnd, int max_n) {
  Shape s;
  s.batch = rnd.between(1, 2);
  s.kv_heads = rnd.between(1, 2);
  s.heads = s.kv_heads * rnd.between(1, 3);
  s.nq = rnd.chance(0.2) ? 1 : rnd.between(1, max_n);
  s.nk = rnd.chance(0.5) ? s.nq : rnd.between(1, max_n);
  const int dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 80};
  s.dk = dims[rnd.between(0, 15)];
  s.dv = rnd.chance(0.5) ? s.dk : dims[rnd.between(0, 15)];
  return s;
}

TEST(Tiled, RandomShapesAndOptions) {
  Random rnd(20240601);
  for (int t = 0; t < 300; ++t) {
    Case c = make_case(rnd, random_shape(rnd, 150));
    c.options.causal = Causal(rnd.between(0, 2));
    if (rnd.chance(0.4)) add_random_mask(rnd, c, rnd.chance(0.5) ? Mask::Kind::boolean : Mask::Kind::additive);
    if (rnd.chance(0.1)) c.options.scale = rnd.chance(0.5) ? 0.0f : rnd.uniform(0.01f, 2.0f);
    SCOPED_TRACE(c.describe());
    expect_close(c, run_tiled(c));
  }
}

TEST(Tiled, LongRows) {
  Random rnd(7);
  for (int t = 0; t < 12; ++t) {
    Shape s;
    s.nq = rnd.between(1, 40);
    s.nk = rnd.between(500, 1000);
    s.dk = t % 2 ? 64 : rnd.between(1, 40);
    s.dv = rnd.between(1, 70);
    Case c = make_case(rnd, s);
    c.options.causal = Causal(t % 3);
    SCOPED_TRACE(c.describe());
    expect_close(c, run_tiled(c));
  }
}

// Scores in the hundreds: a naive softmax would overflow; the running maximum must not.
TEST(Tiled, LargeScoresStayFinite) {
  Random rnd(11);
  Shape s;
  s.nq = 70;
  s.nk = 200;
  s.dk = s.dv = 16;
  Case c = make_case(rnd, s, 6.0f);
  c.options.scale = 1.0f;
  expect_close(c, run_tiled(c));
}

// Key padding: a (batch, 1, 1, nk) boolean mask that hides each sequence's tail.
TEST(Tiled, PaddingMask) {
  Random rnd(3);
  Shape s;
  s.batch = 3;
  s.heads = 2;
  s.kv_heads = 1;
  s.nq = s.nk = 77;
  s.dk = s.dv = 32;
  Case c = make_case(rnd, s);
  Mask& m = c.options.mask;
  m.kind = Mask::Kind::boolean;
  m.dims = {s.batch, 1, 1, s.nk};
  m.values.assign(std::size_t(s.batch) * s.nk, 1.0f);
  const int valid[] = {77, 40, 3};
  for (int b = 0; b < s.batch; ++b)
    std::fill(m.values.begin() + b * s.nk + valid[b], m.values.begin() + (b + 1) * s.nk, 0.0f);
  for (Causal causal : {Causal::none, Causal::top_left}) {
    c.options.causal = causal;
    expect_close(c, run_tiled(c));
  }
}

// A row with no visible key gives exactly 0, never NaN: by a mask, or by a bottom-right
// causal alignment with fewer keys than queries.
TEST(Tiled, FullyMaskedRowsAreExactlyZero) {
  Random rnd(5);
  Shape s;
  s.nq = 90;
  s.nk = 130;
  s.dk = 8;
  s.dv = 12;
  Case c = make_case(rnd, s);
  Mask& m = c.options.mask;
  m.kind = Mask::Kind::additive;
  m.dims = {1, 1, s.nq, s.nk};
  m.values = rnd.values(std::size_t(s.nq) * s.nk, 2.0f);
  const int dead[] = {0, 5, 63, 64, 89};
  for (int i : dead) std::fill_n(m.values.begin() + std::size_t(i) * s.nk, s.nk, kNegInf);
  const std::vector<float> out = run_tiled(c);
  expect_close(c, out);
  for (int i : dead)
    for (int d = 0; d < s.dv; ++d) EXPECT_EQ(out[std::size_t(i) * s.dv + d], 0.0f) << "row " << i;

  Case few_keys = make_case(rnd, Shape{1, 2, 2, 100, 30, 16, 16});
  few_keys.options.causal = Causal::bottom_right;  // rows 0..69 see no key
  const std::vector<float> out2 = run_tiled(few_keys);
  expect_close(few_keys, out2);
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < 70; ++i)
      for (int d = 0; d < 16; ++d) EXPECT_EQ(out2[(std::size_t(h) * 100 + i) * 16 + d], 0.0f);
}

// The public entry point routes "tiled" here and agrees with the reference kernel.
TEST(Tiled, ForwardSelectsTiledAndAgreesWithReference) {
  Random rnd(9);
  Case c = make_case(rnd, Shape{2, 4, 2, 33, 47, 24, 20});
  c.options.causal = Causal::bottom_right;
  add_random_mask(rnd, c, Mask::Kind::additive);
  std::vector<float> tiled(c.shape.out_size()), reference(c.shape.out_size());
  forward(c.inputs(), c.options, tiled.data(), Kernel::tiled);
  forward(c.inputs(), c.options, reference.data(), Kernel::reference);
  expect_close(c, tiled);
  expect_close(c, reference);
}

}  // namespace
}  // namespace attn
