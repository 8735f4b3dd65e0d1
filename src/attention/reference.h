// The readable reference: computes attention in numbered steps and keeps every
// intermediate, so the interface can show each number and the tests can check each stage.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "attention.h"

namespace attn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;

// Everything computed for one (batch, head) pair.
struct HeadTrace {
  int batch = 0, head = 0, kv_head = 0;
  Matrix raw;      // 1. S = Q Kᵀ                         (nq × nk)
  Matrix scaled;   // 2. S · scale
  Matrix mask;     // 3. the additive term of the mask (0, fill, or the mask's value)
  Matrix masked;   //    scaled + mask
  Vector row_max;  // 4. m_i = max_j masked_ij (0 under the naive softmax)
  Matrix exps;     //    e^(masked_ij − m_i)
  Vector row_sum;  //    Σ_j exps_ij
  Matrix weights;  //    A = exps / row_sum (a blocked row: all 0)
  Matrix output;   // 5. O = A V                           (nq × dv)
};

struct Trace {
  Shape shape;
  std::vector<HeadTrace> heads;  // index batch * shape.heads + head

  const HeadTrace& at(int b, int h) const { return heads[std::size_t(b) * shape.heads + h]; }
  // Gathers one field of every head back into the (batch, heads, nq, cols) layout.
  std::vector<float> gather(Matrix HeadTrace::*field) const;
};

Trace reference_forward(const Inputs& in, const Options& opt);

// Gradients of a loss L given dL/dO, through the recorded trace.
struct HeadGrads {
  Matrix d_output;   // dL/dO                     (nq × dv)
  Matrix d_weights;  // dL/dA = dO Vᵀ             (nq × nk)
  Matrix d_scores;   // dL/dS through the softmax Jacobian: A ⊙ (dA − rowsum(dA ⊙ A))
  Matrix d_q;        // scale · dS K              (nq × dk)
  Matrix d_k;        // scale · dSᵀ Q             (nk × dk), this query head's share
  Matrix d_v;        // Aᵀ dO                     (nk × dv), this query head's share
};

struct Gradients {
  std::vector<HeadGrads> heads;       // index batch * heads + head
  std::vector<float> dq, dk, dv;      // shaped like q, k, v; shared K/V heads summed
};

Gradients reference_backward(const Inputs& in, const Options& opt, const Trace& trace,
                             const float* grad_output);

}  // namespace attn
