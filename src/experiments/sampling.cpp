#include "sampling.h"

#include <cmath>
#include <random>

namespace experiments {

std::vector<float> standard_normal(std::uint32_t seed, std::uint32_t stream, std::size_t count) {
  std::seed_seq seq{seed, stream};
  std::mt19937 rng(seq);
  // Uniform on (0, 1), never 0, so the logarithm below stays finite.
  const auto uniform = [&] { return (double(rng()) + 0.5) / 4294967296.0; };
  const double two_pi = 2.0 * std::acos(-1.0);
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; i += 2) {
    // Box–Muller: two uniforms give two independent standard normals.
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = two_pi * uniform();
    out[i] = float(radius * std::cos(angle));
    if (i + 1 < count) out[i + 1] = float(radius * std::sin(angle));
  }
  return out;
}

Problem random_problem(const attn::Shape& shape, std::uint32_t seed) {
  return {shape, standard_normal(seed, 1, shape.q_size()), standard_normal(seed, 2, shape.k_size()),
          standard_normal(seed, 3, shape.v_size())};
}

}  // namespace experiments
