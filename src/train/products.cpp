#include "products.h"

#include "simd.h"

namespace train {
namespace {

namespace simd = attn::simd;

// c (+)= a·b, one row of c at a time: four vectors of the row accumulate in registers over
// all of a's columns, then the next four; columns past the last whole vector are scalar.
void multiply(const Matrix& a, const Matrix& b, Matrix& c, bool accumulate) {
  const int rows = int(a.rows()), inner = int(a.cols()), cols = int(b.cols());
  constexpr int L = simd::kLanes, block = 4 * L;
  const float* B = b.data();
  for (int i = 0; i < rows; ++i) {
    const float* A = a.data() + std::size_t(i) * inner;
    float* C = c.data() + std::size_t(i) * cols;
    int j = 0;
    for (; j + block <= cols; j += block) {
      simd::vf c0 = accumulate ? simd::load(C + j) : simd::splat(0), c1 = accumulate ? simd::load(C + j + L) : simd::splat(0),
               c2 = accumulate ? simd::load(C + j + 2 * L) : simd::splat(0),
               c3 = accumulate ? simd::load(C + j + 3 * L) : simd::splat(0);
      for (int k = 0; k < inner; ++k) {
        const simd::vf x = simd::splat(A[k]);
        const float* row = B + std::size_t(k) * cols + j;
        c0 = simd::madd(x, simd::load(row), c0);
        c1 = simd::madd(x, simd::load(row + L), c1);
        c2 = simd::madd(x, simd::load(row + 2 * L), c2);
        c3 = simd::madd(x, simd::load(row + 3 * L), c3);
      }
      simd::store(C + j, c0);
      simd::store(C + j + L, c1);
      simd::store(C + j + 2 * L, c2);
      simd::store(C + j + 3 * L, c3);
    }
    for (; j + L <= cols; j += L) {
      simd::vf acc = accumulate ? simd::load(C + j) : simd::splat(0);
      for (int k = 0; k < inner; ++k) acc = simd::madd(simd::splat(A[k]), simd::load(B + std::size_t(k) * cols + j), acc);
      simd::store(C + j, acc);
    }
    for (; j < cols; ++j) {
      float acc = accumulate ? C[j] : 0.0f;
      for (int k = 0; k < inner; ++k) acc += A[k] * B[std::size_t(k) * cols + j];
      C[j] = acc;
    }
  }
}

}  // namespace

Matrix product(const Matrix& a, const Matrix& b) {
  Matrix c(a.rows(), b.cols());
  multiply(a, b, c, false);
  return c;
}

Matrix product_tn(const Matrix& a, const Matrix& b) { return product(a.transpose(), b); }

Matrix product_nt(const Matrix& a, const Matrix& b) { return product(a, b.transpose()); }

void add_product(const Matrix& a, const Matrix& b, Matrix& c) { multiply(a, b, c, true); }

}  // namespace train
