// The differential fuzzer's problems: an attention problem decoded from a fuzz input.
//
// The input picks the size class, then heads, scale, causal alignment, a broadcast boolean
// or additive mask, and the magnitude of each tensor (from 1e-30 to 1e20; −∞ sprinkled into
// the additive mask); a generator seeded from the input fills the values. Most inputs are
// small, so that the fuzzer runs thousands a minute; some reach the tiled kernel's key tiles
// and query blocks (differential_problem.cpp says which sizes and why).
//
// The fields are read with FuzzedDataProvider, so from the input's last byte backwards, one
// byte each but for the −∞ per mille (two), a custom scale (four) and the seed (eight): size
// class, batch, K/V heads, query heads per K/V head, n_q, n_k, d_k, d_v, scale (a custom one
// after it), causal, mask kind, the magnitudes of the mask, Q, K and V, the additive mask's −∞
// per mille, the values' seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention.h"

namespace differential {

struct Problem {
  attn::Shape shape;
  attn::Options options;
  std::vector<float> q, k, v;
  float magnitudes[4];  // Q, K, V, mask

  void describe() const;  // on stderr, one line: what a corpus file or a reproducer holds
};

Problem decode(const std::uint8_t* data, std::size_t size);

}  // namespace differential
