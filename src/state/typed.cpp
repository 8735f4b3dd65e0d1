#include "typed.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lab {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr Typed kTyped[] = {Typed::x, Typed::wq, Typed::wk, Typed::wv, Typed::q, Typed::k, Typed::v};

std::vector<float> State::*member(Typed t) {
  constexpr std::vector<float> State::*members[] = {&State::x, &State::wq, &State::wk, &State::wv,
                                                     &State::q, &State::k,  &State::v};
  return members[int(t)];
}

struct Shape {
  int batch, rows, cols;
  bool operator==(const Shape& o) const { return batch == o.batch && rows == o.rows && cols == o.cols; }
};

Shape shape(const Dims& d, Typed t) {
  switch (t) {
    case Typed::x: return {d.batches, d.nq, d.dmodel};
    case Typed::wq:
    case Typed::wk: return {1, d.dmodel, d.dk};  // one set of W for the batch
    case Typed::wv: return {1, d.dmodel, d.dv};
    case Typed::q: return {d.batches, d.nq, d.dk};
    case Typed::k: return {d.batches, d.nk, d.dk};
    case Typed::v: return {d.batches, d.nk, d.dv};
  }
  return {};
}
Shape shape(const State& s, Typed t) { return shape(Dims{s.nq, s.nk, s.dk, s.dv, s.dmodel, s.batches()}, t); }

// Whether the state computes with the matrix (normalize drops the others): X and the W with
// projections, Q without, K and V in cross-attention.
bool used(const State& s, Typed t) {
  if (s.projected()) return t == Typed::x || t == Typed::wq || t == Typed::wk || t == Typed::wv;
  return t == Typed::q || (s.kind == Attention::cross && (t == Typed::k || t == Typed::v));
}

// What the seed draws for a matrix at the state's shape (X and Q share a salt: without
// projections Q is X).
std::vector<float> seeded(const State& s, Typed t) {
  const Shape sh = shape(s, t);
  const std::size_t count = std::size_t(sh.batch) * sh.rows * sh.cols;
  switch (t) {
    case Typed::x:
    case Typed::q: return seeded_values(s.seed, 1, count);
    case Typed::k: return seeded_values(s.seed, 2, count);
    case Typed::v: return seeded_values(s.seed, 3, count);
    case Typed::wq: return seeded_weights(s.seed, 4, sh.rows, sh.cols);
    case Typed::wk: return seeded_weights(s.seed, 5, sh.rows, sh.cols);
    case Typed::wv: return seeded_weights(s.seed, 6, sh.rows, sh.cols);
  }
  return {};
}

// A typed matrix moved to a new shape: every cell (sequence, row, column) inside both shapes
// keeps its value, the others take what the seed draws there (`fresh`), so a matrix grown and
// shrunk back is the one typed.
std::vector<float> reshaped(const std::vector<float>& old, Shape from, Shape to, std::vector<float> fresh) {
  for (int b = 0; b < std::min(from.batch, to.batch); ++b)
    for (int r = 0; r < std::min(from.rows, to.rows); ++r)
      std::copy_n(old.begin() + (std::ptrdiff_t(b) * from.rows + r) * from.cols, std::min(from.cols, to.cols),
                  fresh.begin() + (std::ptrdiff_t(b) * to.rows + r) * to.cols);
  return fresh;
}

}  // namespace

std::vector<float> seeded_values(std::uint32_t seed, std::uint32_t salt, std::size_t count) {
  std::vector<float> values(count);
  const std::uint64_t stream = (std::uint64_t(seed) << 32 | salt) * 0x100000001b3ull;
  for (std::size_t i = 0; i < count; ++i)
    values[i] = float(int(splitmix64(stream + i) % 31) - 15) / 10.0f;
  return values;
}

std::vector<float> seeded_weights(std::uint32_t seed, std::uint32_t salt, int rows, int cols) {
  std::vector<float> w = seeded_values(seed, salt, std::size_t(rows) * cols);
  for (float& x : w) x = std::round(x / std::sqrt(float(rows)) * 100.0f) / 100.0f;
  return w;
}

std::size_t normalized_size(const State& s, std::vector<float> State::*matrix) {
  for (Typed t : kTyped) {
    if (member(t) != matrix) continue;
    if (!used(s, t)) return 0;
    const Shape sh = shape(normalized_dims(s), t);
    return std::size_t(sh.batch) * sh.rows * sh.cols;
  }
  return 0;
}

std::vector<float> typed_or_seeded(const State& s, Typed t) {
  const std::vector<float>& typed = s.*member(t);
  return typed.empty() ? seeded(s, t) : typed;
}

void normalize(State& s, const State& before) {
  // Held aside from normalize, which drops matrices of the wrong size, then moved to the
  // normalised shape.
  std::vector<float> carried[std::size(kTyped)];
  for (Typed t : kTyped) {
    std::vector<float>& m = s.*member(t);
    if (!m.empty() && m == before.*member(t)) carried[int(t)] = std::move(m), m.clear();
  }
  // normalize() forgets loaded data's name, tokens and heads where Q, K or V is missing, as
  // they are while held aside: they come back with the matrices (a theme or step set after
  // loading).
  std::string source = s.source;
  std::vector<std::string> query_tokens = s.query_tokens, key_tokens = s.key_tokens;
  std::shared_ptr<const std::vector<LoadedHead>> loaded_heads = s.loaded_heads;
  const int head = s.head;
  normalize(s);
  for (Typed t : kTyped) {
    std::vector<float>& kept = carried[int(t)];
    if (kept.empty() || !used(s, t)) continue;
    const Shape from = shape(before, t), to = shape(s, t);
    s.*member(t) = from == to ? std::move(kept) : reshaped(kept, from, to, seeded(s, t));
  }
  if (s.kind == Attention::cross && !s.q.empty() && !s.k.empty() && !s.v.empty() && s.source.empty()) {
    s.source = std::move(source);
    s.query_tokens = std::move(query_tokens);
    s.key_tokens = std::move(key_tokens);
    s.loaded_heads = std::move(loaded_heads);
    s.head = head;
    forget_heads_of_another_shape(s);
  }
}

}  // namespace lab
