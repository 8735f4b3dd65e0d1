// The fast forward kernel: tiles of keys streamed through an online softmax (running row
// maximum and sum, partial output rescaled when the maximum grows), so no n_q × n_k matrix
// is ever held. Same inputs, options and result as the reference.
#pragma once

#include <cstddef>

#include "attention.h"

namespace attn {

void tiled_forward(const Inputs& in, const Options& opt, float* out);

// The instruction set tiled_forward runs with: simd::kName, or attention-relaxed.wasm's where it
// hands its work to that module (relaxed/relaxed.h).
const char* tiled_instruction_set();

// The floats of scratch tiled_forward allocates for a head of this d_k: the packed queries, the
// packed K tile, the block's S/P, m, l and the row maxima. Independent of n_q and n_k.
std::size_t tiled_scratch_floats(int dk);

}  // namespace attn
