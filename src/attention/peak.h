// The arithmetic peak of the kernel's vectors: simd.h's madd and nothing else, for the cost
// view's "this machine" line and the benchmark's ceiling. Timed by the caller (the relaxed
// module has no clock).
#pragma once

namespace attn {

// Multiply-adds per step: twelve independent chains (a chain waits on its own previous
// result; twelve cover the latency of a multiply-add times the ones a core issues per cycle,
// and fit V8's 15 or so SIMD registers with the two constants).
inline constexpr int kPeakChains = 12;

// `steps` steps of the chains from fixed seeds, with the instruction set tiled_forward runs
// with (attention-relaxed.wasm's fused multiply-add where it is loaded): 2 · kLanes FLOPs per
// multiply-add. Returns a sum of the chains, for the caller to keep so the work is not dropped.
float madd_chains(int steps);
// The FLOPs of madd_chains(steps).
double madd_chains_flops(int steps);

}  // namespace attn
