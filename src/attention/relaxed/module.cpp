// attention-relaxed.wasm: the tiled kernel alone, compiled by clang-19 with relaxed SIMD, so
// simd.h's madd is f32x4.relaxed_madd (a fused multiply-add where the CPU has one).
//
// Why a module of its own: Emscripten 3.1.6 runs every module through Debian's binaryen,
// which cannot read relaxed-SIMD instructions. This one is linked by wasm-ld-19 against
// wasi-libc without the Emscripten runtime, and has its own memory: the Emscripten modules
// (the page, the kernel module, the unit tests) copy a head's inputs in and the output back
// through relaxed_loader.js, which loads it only where WebAssembly.validate accepts relaxed
// SIMD. Everything else, the reference kernel included, stays in the SIMD128 build.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "attention.h"
#include "peak.h"
#include "simd.h"
#include "tiled.h"

#define ATTN_EXPORT(name) extern "C" __attribute__((export_name(#name)))

ATTN_EXPORT(attn_alloc) void* attn_alloc(std::uint32_t bytes) { return std::malloc(bytes); }
ATTN_EXPORT(attn_free) void attn_free(void* p) { std::free(p); }
// simd.h's name for what it compiled: "wasm-relaxed-simd" unless the relaxed flag did not take.
ATTN_EXPORT(attn_instruction_set) const char* attn_instruction_set() { return attn::simd::kName; }

// attn::madd_chains with fused multiply-add: the peak the tiled kernel here is measured against.
ATTN_EXPORT(attn_madd_chains) float attn_madd_chains(int steps) { return attn::madd_chains(steps); }

// The arguments of attn::tiled_forward, flattened: the shape, the scale, attn::Causal's code,
// and the mask (attn::Mask::Kind's code, its four dims and values; no values when the kind is
// none). The Emscripten side has checked the shape (attn::validate) and the options.
ATTN_EXPORT(attn_tiled_forward)
void attn_tiled_forward(int batch, int heads, int kv_heads, int nq, int nk, int dk, int dv, const float* q,
                        const float* k, const float* v, float scale, int causal, int mask_kind, int m0, int m1,
                        int m2, int m3, const float* mask, std::uint32_t mask_count, float* out) {
  attn::Options opt;
  opt.scale = scale;
  opt.causal = attn::Causal(causal);
  opt.mask.kind = attn::Mask::Kind(mask_kind);
  opt.mask.dims = {m0, m1, m2, m3};
  opt.mask.values.assign(mask, mask + mask_count);
  const attn::Inputs in{{batch, heads, kv_heads, nq, nk, dk, dv}, q, k, v};
  attn::tiled_forward(in, opt, out);
}
