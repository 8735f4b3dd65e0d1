// The matrices a person can type in (State::x, wq, wk, wv, q, k, v): what the seed draws for
// them, and how typed values survive a live edit of the shape or the seed.
#pragma once

#include <cstdint>
#include <vector>

#include "state.h"

namespace lab {

// The values a seed draws for a matrix: multiples of 0.1 in [-1.5, 1.5], so every product in
// the walkthrough is easy to check by hand. `salt` tells Q, K and V apart.
std::vector<float> seeded_values(std::uint32_t seed, std::uint32_t salt, std::size_t count);
// A projection W (rows × cols, rows = d_model) drawn from a seed: seeded_values scaled by
// 1/√d_model, as layers are initialised, so Q = X W keeps X's spread whatever d_model; rounded
// to 0.01 so every weight reads exactly as the interface prints it.
std::vector<float> seeded_weights(std::uint32_t seed, std::uint32_t salt, int rows, int cols);

enum class Typed { x, wq, wk, wv, q, k, v };
// How many values of `matrix` (&State::q, …) normalize() keeps: its size at the normalised
// dims where the state computes with it, 0 where it does not. A typed matrix of another size
// is dropped; a link's reader asks this before the state is normalised.
std::size_t normalized_size(const State& s, std::vector<float> State::*matrix);
// The matrix as the state computes with it, (batch, rows, cols) flattened: typed, or the seed's.
std::vector<float> typed_or_seeded(const State& s, Typed t);

// normalize() after a live edit from `before` (the inputs panel, the page API; not a link,
// whose meaning must not depend on what was on screen): a typed matrix left as it was while the
// shape changes (n, d_k, d_v, d_model, the batch) keeps the cells inside both shapes and takes
// the seed's values in the new ones, so a matrix grown and shrunk back is the one typed; a new
// seed keeps typed matrices whole.
void normalize(State& s, const State& before);

}  // namespace lab
