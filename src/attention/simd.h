// The tiled kernel's only view of the hardware: one float vector type `vf` of kLanes lanes
// and a handful of operations on it, in the spirit of ggml's simd-mappings.h. One branch per
// instruction set, picked at compile time:
//
//   __wasm_simd128__   WebAssembly SIMD128 (the browser), 4 lanes; with __wasm_relaxed_simd__
//                      (attention-relaxed.wasm) its multiply-add is fused
//   __AVX2__ + __FMA__ AVX2 with fused multiply-add (native x86-64), 8 lanes
//   __SSE2__           SSE2 (any x86-64), 4 lanes
//   otherwise          scalar, 1 lane; also forced by ATTN_NO_SIMD so the kernel's logic can
//                      be tested without any vector code
//
// The kernel is written against these names only, with scalar tails where a length is not a
// multiple of kLanes, so one source serves every target.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(ATTN_NO_SIMD)
#define ATTN_SIMD_SCALAR 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ATTN_SIMD_WASM 1
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ATTN_SIMD_AVX2 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define ATTN_SIMD_SSE2 1
#else
#define ATTN_SIMD_SCALAR 1
#endif

namespace attn::simd {

// [SECTION] Per-instruction-set primitives --------------------------------------------------
// Each branch defines: vf, kLanes, kName, load, store, splat, load_splat, add, sub, mul,
// madd (a·b + c), max, hsum, hmax, and shl23 (the bits shifted left by 23, as an integer),
// the one bit-level step exp2() needs.
//
// max(a, b) returns a when either is NaN, on every instruction set (each has a one-instruction
// maximum, and they disagree on NaN: x86's maxps returns its second operand, SIMD128's pmax
// its first). Written max(x, bound), a NaN x stays NaN: exp2() of a NaN score is NaN, and
// the row's output is NaN on every target, as in the reference.

#if ATTN_SIMD_WASM
using vf = v128_t;
inline constexpr int kLanes = 4;
#if defined(__wasm_relaxed_simd__)
inline constexpr const char* kName = "wasm-relaxed-simd";
#else
inline constexpr const char* kName = "wasm-simd128";
#endif
inline vf load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, vf a) { wasm_v128_store(p, a); }
inline vf splat(float x) { return wasm_f32x4_splat(x); }
inline vf load_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline vf add(vf a, vf b) { return wasm_f32x4_add(a, b); }
inline vf sub(vf a, vf b) { return wasm_f32x4_sub(a, b); }
inline vf mul(vf a, vf b) { return wasm_f32x4_mul(a, b); }
#if defined(__wasm_relaxed_simd__)
// Relaxed SIMD (attention-relaxed.wasm, src/attention/relaxed): fused where the CPU has FMA,
// else a multiply and an add; either rounding is within the kernel's tolerance.
inline vf madd(vf a, vf b, vf c) { return wasm_f32x4_relaxed_madd(a, b, c); }
#else
// SIMD128 has no fused multiply-add.
inline vf madd(vf a, vf b, vf c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
#endif
// pmax (a < b ? b : a) is the "pseudo" maximum that lowers to one maxps in V8; the IEEE one
// (wasm_f32x4_max) costs several instructions for NaN and ±0 handling we never need.
inline vf max(vf a, vf b) { return wasm_f32x4_pmax(a, b); }
inline float hsum(vf a) {
  a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
  a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(a, 0);
}
inline float hmax(vf a) {
  a = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
  a = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(a, 0);
}
inline vf shl23(vf a) { return wasm_i32x4_shl(a, 23); }

#elif ATTN_SIMD_AVX2
using vf = __m256;
inline constexpr int kLanes = 8;
inline constexpr const char* kName = "avx2-fma";
inline vf load(const float* p) { return _mm256_loadu_ps(p); }
inline void store(float* p, vf a) { _mm256_storeu_ps(p, a); }
inline vf splat(float x) { return _mm256_set1_ps(x); }
inline vf load_splat(const float* p) { return _mm256_broadcast_ss(p); }
inline vf add(vf a, vf b) { return _mm256_add_ps(a, b); }
inline vf sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
inline vf mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
inline vf madd(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
inline vf max(vf a, vf b) { return _mm256_max_ps(b, a); }  // maxps: the second operand on NaN
inline float hsum(vf a) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}
inline float hmax(vf a) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}
inline vf shl23(vf a) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(a), 23)); }

#elif ATTN_SIMD_SSE2
using vf = __m128;
inline constexpr int kLanes = 4;
inline constexpr const char* kName = "sse2";
inline vf load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, vf a) { _mm_storeu_ps(p, a); }
inline vf splat(float x) { return _mm_set1_ps(x); }
inline vf load_splat(const float* p) { return _mm_load1_ps(p); }
inline vf add(vf a, vf b) { return _mm_add_ps(a, b); }
inline vf sub(vf a, vf b) { return _mm_sub_ps(a, b); }
inline vf mul(vf a, vf b) { return _mm_mul_ps(a, b); }
inline vf madd(vf a, vf b, vf c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
inline vf max(vf a, vf b) { return _mm_max_ps(b, a); }  // maxps: the second operand on NaN
inline float hsum(vf a) {
  a = _mm_add_ps(a, _mm_movehl_ps(a, a));
  a = _mm_add_ss(a, _mm_shuffle_ps(a, a, 1));
  return _mm_cvtss_f32(a);
}
inline float hmax(vf a) {
  a = _mm_max_ps(a, _mm_movehl_ps(a, a));
  a = _mm_max_ss(a, _mm_shuffle_ps(a, a, 1));
  return _mm_cvtss_f32(a);
}
inline vf shl23(vf a) { return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(a), 23)); }

#else  // scalar
using vf = float;
inline constexpr int kLanes = 1;
inline constexpr const char* kName = "scalar";
inline vf load(const float* p) { return *p; }
inline void store(float* p, vf a) { *p = a; }
inline vf splat(float x) { return x; }
inline vf load_splat(const float* p) { return *p; }
inline vf add(vf a, vf b) { return a + b; }
inline vf sub(vf a, vf b) { return a - b; }
inline vf mul(vf a, vf b) { return a * b; }
inline vf madd(vf a, vf b, vf c) { return a * b + c; }
inline vf max(vf a, vf b) { return b > a ? b : a; }
inline float hsum(vf a) { return a; }
inline float hmax(vf a) { return a; }
inline vf shl23(vf a) {
  std::uint32_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  bits <<= 23;
  std::memcpy(&a, &bits, sizeof a);
  return a;
}
#endif

// [SECTION] exp2 ----------------------------------------------------------------------------
// 2^x for x <= 0, which is all softmax needs once the scores are in base 2 (the kernel folds
// log2(e) into the scale). x = n + r with n the nearest integer and |r| <= 1/2; 2^r from the
// degree-4 polynomial of least maximum relative error on [−1/2, 1/2] (Remez; 2.6e-6, 2.7e-6
// measured in float32 over [−120, 0]). That is well inside the contract's 1e-4: an output row
// is a weighted mean of V rows, so weights off by a relative ε move it by at most 2ε·max|v|,
// and degree 5 (2.4e-7) costs the whole kernel 2% in V8. 2^n is written straight into the
// exponent bits. Adding 1.5·2^23 rounds x to an integer in the low mantissa bits
// (the FPU does the rounding, no conversion instruction), and the extra 127 is the exponent
// bias, so those bits shifted left by 23 are 2^n as a float. Below −126.5 (which includes
// −∞, a blocked key) x is raised to −127, whose exponent bits are 0: the result is exactly 0.
// Weights that small never matter, and a blocked key must weigh exactly nothing.
inline vf exp2(vf x) {
  const vf magic = splat(12582912.0f + 127.0f);
  x = max(x, splat(-127.0f));  // 2^−127 comes out as exponent bits 0, that is exactly 0
  const vf t = add(x, magic);
  const vf r = sub(x, sub(t, magic));  // x − n
  vf p = splat(9.570101908081146e-3f);
  p = madd(p, r, splat(5.5917860319303916e-2f));
  p = madd(p, r, splat(2.4024744827944053e-1f));
  p = madd(p, r, splat(6.931218147367708e-1f));
  p = madd(p, r, splat(9.999992614457144e-1f));
  return mul(p, shl23(t));
}

}  // namespace attn::simd
