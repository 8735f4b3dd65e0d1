// The model's matrix products, C = A·B on row-major float matrices, written against the
// kernel's vector helpers (simd.h). Eigen 3.4 has no WebAssembly SIMD path, and its scalar
// GEMM took half of every training step in the browser; these few loops keep a block of C's
// row in registers while streaming B's rows, on every target.
#pragma once

#include "reference.h"

namespace train {

using attn::Matrix;

// A·B, Aᵀ·B and A·Bᵀ (the transposed operand is copied once: the matrices here are small).
Matrix product(const Matrix& a, const Matrix& b);
Matrix product_tn(const Matrix& a, const Matrix& b);
Matrix product_nt(const Matrix& a, const Matrix& b);
// c += a·b
void add_product(const Matrix& a, const Matrix& b, Matrix& c);

}  // namespace train
