// The fast forward kernel: tiles of keys streamed through an online softmax (running row
// maximum and sum, partial output rescaled when the maximum grows), so no n_q × n_k matrix
// is ever held. Same inputs, options and result as the reference.
#pragma once

#include "attention.h"

namespace attn {

void tiled_forward(const Inputs& in, const Options& opt, float* out);

}  // namespace attn
