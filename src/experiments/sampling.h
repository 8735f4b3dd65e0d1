// Seeded random problems for the experiments. The numbers come from std::mt19937 and
// std::seed_seq, which the standard specifies bit for bit, turned into normals by Box–Muller
// here rather than by std::normal_distribution, whose algorithm differs between libstdc++
// (desktop) and libc++ (Emscripten): one seed then shows the same problem in both builds.
#pragma once

#include <cstdint>
#include <vector>

#include "attention.h"

namespace experiments {

// `count` draws from N(0, 1); `stream` separates the tensors drawn from one seed.
std::vector<float> standard_normal(std::uint32_t seed, std::uint32_t stream, std::size_t count);

// Q, K and V of a shape, every entry drawn from N(0, 1).
struct Problem {
  attn::Shape shape;
  std::vector<float> q, k, v;

  attn::Inputs inputs() const { return {shape, q.data(), k.data(), v.data()}; }
};

Problem random_problem(const attn::Shape& shape, std::uint32_t seed);

}  // namespace experiments
