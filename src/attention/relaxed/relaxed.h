// The tiled kernel with fused multiply-add, in WebAssembly: attention-relaxed.wasm
// (module.cpp), loaded beside an Emscripten module by loader.js where the browser or Node
// accepts relaxed SIMD. attn::tiled_forward() hands it the work when it is there.
#pragma once

#include "attention.h"

namespace attn::relaxed {

// Whether attention-relaxed.wasm is loaded (never natively, where the native build has its own
// FMA through AVX2).
bool available();

// What attention-relaxed.wasm says it was compiled for (simd.h's kName there:
// "wasm-relaxed-simd" unless the relaxed flag did not take). Only where available().
const char* instruction_set();

// attn::tiled_forward through attention-relaxed.wasm: the head's inputs and mask are copied into
// its memory and the output back. False, with nothing written, when that memory cannot hold
// them; the caller then runs the SIMD128 kernel.
bool tiled_forward(const Inputs& in, const Options& opt, float* out);

// attn::madd_chains in attention-relaxed.wasm. Only where available().
float madd_chains(int steps);

}  // namespace attn::relaxed
