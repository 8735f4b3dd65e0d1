// Tiled forward with online softmax (the flash-attention recurrence), vectorised through
// simd.h.
//
// For each query row i the kernel keeps a running maximum m, a running sum l and an
// unnormalised output o. A new tile of scores s_j updates them as
//   m' = max(m, max_j s_j),  l' = l·e^(m − m') + Σ_j e^(s_j − m'),
//   o' = o·e^(m − m') + Σ_j e^(s_j − m') v_j,
// and the output is o / l once every tile is in (0 when l is 0: every key was blocked).
//
// Work is cut into blocks of query rows × tiles of keys. Per (batch, head, query block):
//   1. pack the block's queries times scale · log2(e), interleaved by register block;
//      start: o = 0 (written straight into `out`), m = −∞, l = 0
//   for each key tile that causality leaves visible to some row of the block:
//     2. pack the tile of K transposed, so scores come out as rows of vectors
//     3. S = Q_block · K_tileᵀ                      (rows × keys, register-blocked),
//        with each row's maximum taken while the scores are still in registers
//     4. online softmax on S: mask, new max, P = 2^(S − m'), l, rescale o
//     5. o += P · V_tile                            (rows × d_v, register-blocked)
//   6. o /= l
// Extra memory: the packed queries (rows × d_k), the packed tile (d_k × keys), the block's
// S/P (rows × keys), m, l and the per-lane row maxima (rows × lanes).
#include "tiled.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "relaxed/relaxed.h"
#include "simd.h"

namespace attn {

namespace {

using simd::kLanes;
using simd::vf;

// [SECTION] Sizes ---------------------------------------------------------------------------
// The register block of both products is kRows query rows × kCols columns (keys in step 3,
// output features in step 5): 4 × 2 vectors = 8 accumulators, plus 2 loaded vectors, one
// broadcast and one product temporary = 12 registers. V8 allocates about 15 SIMD registers
// on x86-64 and spills beyond that, so larger blocks and unrolled inner loops are slower
// (bench/README.md has the measurements). With relaxed SIMD's fused multiply-add there is no
// product temporary; the block is the same in both builds.
constexpr int kRows = 4;
constexpr int kCols = 2 * kLanes;
// 512 query rows × 64 keys per block: the packed K tile and the V tile (16 KiB each at
// d = 64) stay in L1 while the block's S/P, packed queries and output rows (128 KiB each)
// stream through L2. Larger query blocks spread the cost of packing a K tile and of
// streaming K and V over more rows, up to where the block's rows leave L2 (bench/README.md).
// Fewer keys when d_k is large, so the packed tile stays small.
constexpr int kQueryBlock = 512;
constexpr int kMaxKeyTile = 64;
constexpr int kPackedFloats = 64 * 64;
// The row stride of the block's S/P, a constant so that the products address their kRows
// rows from one pointer at constant offsets, which V8 folds into the loads.
constexpr int kLdS = kMaxKeyTile;

int round_up(int x, int m) { return (x + m - 1) / m * m; }

int key_tile(int dk) { return std::clamp(kPackedFloats / dk / kCols * kCols, kCols, kMaxKeyTile); }

// Keys [0, end) that a causal alignment leaves visible to query i.
int causal_key_end(Causal c, int i, int nq, int nk) {
  switch (c) {
    case Causal::none: return nk;
    case Causal::top_left: return std::clamp(i + 1, 0, nk);
    case Causal::bottom_right: return std::clamp(i + 1 + (nk - nq), 0, nk);
  }
  return nk;
}

// Calls block(first_row, std::integral_constant<int, R>) over `rows` in register blocks of
// kRows, then once for the 1 to 3 rows left, so each block size is its own unrolled code.
template <class Block>
void for_row_blocks(int rows, Block&& block) {
  int r = 0;
  for (; r + kRows <= rows; r += kRows) block(r, std::integral_constant<int, kRows>{});
  switch (rows - r) {
    case 3: block(r, std::integral_constant<int, 3>{}); break;
    case 2: block(r, std::integral_constant<int, 2>{}); break;
    case 1: block(r, std::integral_constant<int, 1>{}); break;
  }
}

// [SECTION] Step 1: pack the query block ----------------------------------------------------
// qp holds the block's rows in groups of kRows, interleaved and pre-scaled (so step 3 needs
// no multiply by the scale): qp[(g·dk + d)·kRows + r] = Q[g·kRows + r][d] · scale, rows past
// `rows` zero. Step 3 then broadcasts the kRows q values of one d from one pointer at fixed
// offsets, and V8's inner loop computes no address per row: the products are bound by
// instruction count.
void pack_queries(const float* Q, int rows, int dk, float scale, float* qp) {
  for (int g = 0; g < rows; g += kRows, qp += std::size_t(kRows) * dk)
    for (int r = 0; r < kRows; ++r)
      for (int d = 0; d < dk; ++d)
        qp[d * kRows + r] = g + r < rows ? Q[std::size_t(g + r) * dk + d] * scale : 0.0f;
}

// [SECTION] Step 2: pack a K tile -----------------------------------------------------------
// kt (dk, width) = K[j0 .. j0+nj)ᵀ, columns nj .. width zero, so step 3 runs whole vectors.
void pack_k_transposed(const float* K, int dk, int nj, int width, float* kt) {
  for (int d = 0; d < dk; ++d) {
    float* row = kt + std::size_t(d) * width;
    for (int j = 0; j < nj; ++j) row[j] = K[std::size_t(j) * dk + d];
    std::fill(row + nj, row + width, 0.0f);
  }
}

// [SECTION] Step 3: S = Q · Kᵀ ---------------------------------------------------------------
// R rows of one packed query group against kCols columns of the packed tile; s has stride
// kLdS. Each step over d broadcasts one q value per row and multiplies it into two key
// vectors. mx (R × kLanes) gets each row's maximum per lane, so step 4 needs no pass of its
// own over the scores to find it.
template <int R>
void scores_block(const float* qg, int dk, const float* kt, int width, float* s, float* mx) {
  for (int r = 0; r < R; ++r) simd::store(mx + r * kLanes, simd::splat(kNegInf));
  for (int j = 0; j < width; j += kCols) {
    vf acc[R][2];
    for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = simd::splat(0.0f);
    const float* kcol = kt + j;
    // The loop runs on its pointers (no separate counter): one instruction fewer per step.
    for (const float *qd = qg, *qend = qg + dk * kRows; qd != qend; qd += kRows, kcol += width) {
      const vf k0 = simd::load(kcol), k1 = simd::load(kcol + kLanes);
      for (int r = 0; r < R; ++r) {
        const vf qv = simd::load_splat(qd + r);
        acc[r][0] = simd::madd(qv, k0, acc[r][0]);
        acc[r][1] = simd::madd(qv, k1, acc[r][1]);
      }
    }
    for (int r = 0; r < R; ++r) {
      simd::store(s + r * kLdS + j, acc[r][0]);
      simd::store(s + r * kLdS + j + kLanes, acc[r][1]);
      float* row_max = mx + r * kLanes;
      simd::store(row_max, simd::max(simd::load(row_max), simd::max(acc[r][0], acc[r][1])));
    }
  }
}

void scores(const float* qp, int rows, int dk, const float* kt, int width, float* s, float* mx) {
  for_row_blocks(rows, [&](int r, auto R) {
    scores_block<decltype(R)::value>(qp + std::size_t(r) * dk, dk, kt, width, s + std::size_t(r) * kLdS,
                                     mx + r * kLanes);
  });
}

// [SECTION] Step 5: o += P · V ---------------------------------------------------------------
// R rows of P (stride kLdS, nj keys) times the tile's V rows (stride dv) into R output rows.
// Whole kCols-wide column chunks are vectorised; the last dv mod kCols columns are scalar.
// P is walked by one pointer with the rows at constant offsets (see kLdS).
template <int R>
void accumulate_block(const float* p, int nj, const float* V, int dv, float* o) {
  int c = 0;
  for (; c + kCols <= dv; c += kCols) {
    vf acc[R][2];
    for (int r = 0; r < R; ++r) {
      acc[r][0] = simd::load(o + std::size_t(r) * dv + c);
      acc[r][1] = simd::load(o + std::size_t(r) * dv + c + kLanes);
    }
    const float* vrow = V + c;
    for (const float *pj = p, *pend = p + nj; pj != pend; ++pj, vrow += dv) {  // as in step 3
      const vf v0 = simd::load(vrow), v1 = simd::load(vrow + kLanes);
      for (int r = 0; r < R; ++r) {
        const vf pv = simd::load_splat(pj + r * kLdS);
        acc[r][0] = simd::madd(pv, v0, acc[r][0]);
        acc[r][1] = simd::madd(pv, v1, acc[r][1]);
      }
    }
    for (int r = 0; r < R; ++r) {
      simd::store(o + std::size_t(r) * dv + c, acc[r][0]);
      simd::store(o + std::size_t(r) * dv + c + kLanes, acc[r][1]);
    }
  }
  for (; c < dv; ++c)
    for (int r = 0; r < R; ++r) {
      float a = o[std::size_t(r) * dv + c];
      for (int j = 0; j < nj; ++j) a += p[r * kLdS + j] * V[std::size_t(j) * dv + c];
      o[std::size_t(r) * dv + c] = a;
    }
}

void accumulate(const float* p, int rows, int nj, const float* V, int dv, float* o) {
  for_row_blocks(rows, [&](int r, auto R) {
    accumulate_block<decltype(R)::value>(p + std::size_t(r) * kLdS, nj, V, dv, o + std::size_t(r) * dv);
  });
}

// [SECTION] Step 4: online softmax of one row of a tile --------------------------------------
// Scores arrive in base 2, s2 = s·log2(e) (folded into the queries in step 1), so that
// e^(s − m) = 2^(s2 − m2) and the hot loop needs exp2 only. The running maximum m2 is in
// base 2 as well.
struct RowMask {
  Mask::Kind kind = Mask::Kind::none;
  const float* values = nullptr;  // the mask's row for this query, indexed by key × stride
  int stride = 0;                 // 1, or 0 when the mask repeats along the keys
};

constexpr float kLog2e = 1.44269504088896341f;

// s holds `width` scaled scores in base 2 (width a multiple of kLanes), lane_max their
// maximum per lane (from step 3); keys [live, width) are blocked (causal, or padding past the
// tile). Turns s into the tile's probabilities 2^(s2 − m2') and updates the row's m2, l and
// o (dv floats).
void softmax_row(float* s, int width, int live, const float* lane_max, const RowMask& mask, int j0, float& m,
                 float& l, float* o, int dv) {
  float row_max = simd::hmax(simd::load(lane_max));
  // Masks, causal cuts and padding are the uncommon path: scalar, then the maximum again.
  if (mask.kind != Mask::Kind::none || live < width) {
    if (mask.kind == Mask::Kind::additive)
      for (int j = 0; j < live; ++j) s[j] += kLog2e * mask.values[std::size_t(j0 + j) * mask.stride];
    else if (mask.kind == Mask::Kind::boolean)
      for (int j = 0; j < live; ++j)
        if (mask.values[std::size_t(j0 + j) * mask.stride] == 0.0f) s[j] = kNegInf;
    std::fill(s + live, s + width, kNegInf);
    row_max = *std::max_element(s, s + width);
  }
  const float m_new = std::max(m, row_max);
  // Nothing visible yet: 2^(−∞ − (−∞)) would be NaN, so blocked keys weigh 0. The maximum can
  // pass over a NaN score (simd.h), which then stays, so the row ends NaN as in the reference.
  if (m_new == kNegInf) {
    std::replace(s, s + width, kNegInf, 0.0f);
    return;
  }
  const vf vm = simd::splat(m_new);
  vf vsum = simd::splat(0.0f);
  for (int j = 0; j < width; j += kLanes) {
    const vf p = simd::exp2(simd::sub(simd::load(s + j), vm));
    simd::store(s + j, p);
    vsum = simd::add(vsum, p);
  }
  // The partial output was weighted against the old maximum: bring it to the new one.
  // Usually the maximum settles within the first tiles and this is skipped.
  if (m_new != m) {
    const float rescale = std::exp2(m - m_new);  // 2^(−∞) = 0 on the first live tile
    const vf vr = simd::splat(rescale);
    int c = 0;
    for (; c + kLanes <= dv; c += kLanes) simd::store(o + c, simd::mul(simd::load(o + c), vr));
    for (; c < dv; ++c) o[c] *= rescale;
    l *= rescale;
    m = m_new;
  }
  l += simd::hsum(vsum);
}

RowMask mask_row(const Mask& mask, int b, int h, int i) {
  if (mask.empty()) return {};
  const auto& d = mask.dims;
  const int bb = d[0] == 1 ? 0 : b, hh = d[1] == 1 ? 0 : h, ii = d[2] == 1 ? 0 : i;
  const std::size_t row = ((std::size_t(bb) * d[1] + hh) * d[2] + ii) * d[3];
  return {mask.kind, mask.values.data() + row, d[3] == 1 ? 0 : 1};
}

// One block of query rows of one (batch, head), its running state and the scratch.
struct QueryBlock {
  const Shape& s;
  const Options& opt;
  int b, h, i0, rows;
  const float* qp;  // (rows, dk) the block's queries, as pack_queries lays them out
  float* o;         // (rows, dv), its output rows, used as the accumulator
  float* m;         // (rows) running maxima
  float* l;         // (rows) running sums
  float* kt;        // (dk, tile_k) packed K tile
  float* sp;        // (rows, kLdS) S, then P
  float* mx;        // (rows, kLanes) S's row maxima per lane
  int tile_k;
};

// Steps 2 to 5 for one key tile. Kept out of line on purpose: V8 compiles a WebAssembly
// function with its baseline compiler first and swaps in the optimised code only between
// calls, so the hot code must be a function that is called often, not one long loop.
[[gnu::noinline]] void attend_tile(const QueryBlock& blk, const float* K, const float* V, int j0) {
  const Shape& s = blk.s;
  const int nj = std::min(blk.tile_k, s.nk - j0);
  const int width = round_up(nj, kCols);
  // 2. Pack K[j0 .. j0+nj)ᵀ.                                         kt: (dk, width)
  pack_k_transposed(K + std::size_t(j0) * s.dk, s.dk, nj, width, blk.kt);
  // 3. Scores (base 2) of the block against the tile.                 sp: (rows, width)
  scores(blk.qp, blk.rows, s.dk, blk.kt, width, blk.sp, blk.mx);
  // 4. Online softmax, row by row: sp becomes P.
  for (int r = 0; r < blk.rows; ++r) {
    const int i = blk.i0 + r;
    const int live = std::clamp(causal_key_end(blk.opt.causal, i, s.nq, s.nk) - j0, 0, nj);
    softmax_row(blk.sp + std::size_t(r) * kLdS, width, live, blk.mx + r * kLanes,
                mask_row(blk.opt.mask, blk.b, blk.h, i), j0, blk.m[r], blk.l[r], blk.o + std::size_t(r) * s.dv, s.dv);
  }
  // 5. o += P · V[j0 .. j0+nj).                                       o: (rows, dv)
  accumulate(blk.sp, blk.rows, nj, V + std::size_t(j0) * s.dv, s.dv, blk.o);
}

}  // namespace

std::size_t tiled_scratch_floats(int dk) {
  return std::size_t(dk) * key_tile(dk) + std::size_t(kQueryBlock) * dk + std::size_t(kQueryBlock) * kLdS +
         2 * std::size_t(kQueryBlock) + std::size_t(kQueryBlock) * kLanes;
}

const char* tiled_instruction_set() { return relaxed::available() ? relaxed::instruction_set() : simd::kName; }

void tiled_forward(const Inputs& in, const Options& opt, float* out) {
  // Where the browser or Node runs relaxed SIMD, this same kernel built with fused
  // multiply-add (attention-relaxed.wasm) does the work; elsewhere, and inside that module,
  // the code below.
  if (relaxed::available() && relaxed::tiled_forward(in, opt, out)) return;
  const Shape& s = in.shape;
  const int tile_k = key_tile(s.dk);
  // The scratch tiled_scratch_floats() counts.
  std::vector<float> kt(std::size_t(s.dk) * tile_k);
  std::vector<float> qp(std::size_t(kQueryBlock) * s.dk);
  std::vector<float> sp(std::size_t(kQueryBlock) * kLdS);
  std::vector<float> m(kQueryBlock), l(kQueryBlock), mx(kQueryBlock * kLanes);

  for (int b = 0; b < s.batch; ++b) {
    for (int h = 0; h < s.heads; ++h) {
      const int kvh = s.kv_head_of(h);
      const float* Q = in.q + (std::size_t(b) * s.heads + h) * s.nq * s.dk;
      const float* K = in.k + (std::size_t(b) * s.kv_heads + kvh) * s.nk * s.dk;
      const float* V = in.v + (std::size_t(b) * s.kv_heads + kvh) * s.nk * s.dv;
      float* O = out + (std::size_t(b) * s.heads + h) * s.nq * s.dv;

      for (int i0 = 0; i0 < s.nq; i0 += kQueryBlock) {
        const int rows = std::min(kQueryBlock, s.nq - i0);
        const QueryBlock blk{s, opt, b, h, i0, rows, qp.data(), O + std::size_t(i0) * s.dv,
                             m.data(), l.data(), kt.data(), sp.data(), mx.data(), tile_k};
        // 1. Pack the queries and start the recurrence.
        pack_queries(Q + std::size_t(i0) * s.dk, rows, s.dk, opt.scale * kLog2e, qp.data());
        std::fill(blk.o, blk.o + std::size_t(rows) * s.dv, 0.0f);
        std::fill(m.begin(), m.end(), kNegInf);
        std::fill(l.begin(), l.end(), 0.0f);
        // 2–5 per key tile; tiles at or past the last row's causal end are invisible to the
        // whole block and skipped.
        const int block_key_end = causal_key_end(opt.causal, i0 + rows - 1, s.nq, s.nk);
        for (int j0 = 0; j0 < block_key_end; j0 += tile_k) attend_tile(blk, K, V, j0);
        // 6. Normalise; a row that saw no visible key has l = 0 and stays exactly 0, and a
        //    row with a NaN score has l = NaN and stays NaN, as in the reference.
        for (int r = 0; r < rows; ++r) {
          const float inv = l[r] == 0.0f ? 0.0f : 1.0f / l[r];
          float* orow = blk.o + std::size_t(r) * s.dv;
          for (int c = 0; c < s.dv; ++c) orow[c] *= inv;
        }
      }
    }
  }
}

}  // namespace attn
