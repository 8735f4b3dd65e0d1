// Native timings of the forward pass, single thread, d = 64: the readable reference, an
// Eigen-materialised attention (S = Q Kᵀ by Eigen's GEMM, row softmax, S·V) and the tiled
// kernel. Each reports GFLOP/s (4·n_q·n_k·d per head) and the peak heap it used beyond its
// inputs, counted by the malloc wrappers below.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <malloc.h>
#include <random>
#include <vector>

#include "attention.h"
#include "reference.h"
#include "tiled.h"

// [SECTION] Heap accounting -------------------------------------------------------------------
// malloc and free are replaced by counting wrappers around glibc's own, so every allocation
// is seen: operator new's and Eigen's (which calls malloc directly).
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<long> g_live{0}, g_peak{0};

void* counted(void* p) {
  if (p) {
    const long live = g_live += long(malloc_usable_size(p));
    for (long peak = g_peak; live > peak && !g_peak.compare_exchange_weak(peak, live);) {}
  }
  return p;
}
void uncount(void* p) {
  if (p) g_live -= long(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) { return counted(__libc_malloc(n)); }
void* calloc(std::size_t n, std::size_t size) { return counted(__libc_calloc(n, size)); }
void* realloc(void* p, std::size_t n) {
  uncount(p);
  return counted(__libc_realloc(p, n));
}
void free(void* p) {
  uncount(p);
  __libc_free(p);
}
}

namespace {

// [SECTION] The problems ----------------------------------------------------------------------
struct Problem {
  attn::Shape shape;
  std::vector<float> q, k, v, out;
  attn::Options options;

  Problem(int heads, int n) {
    shape = {1, heads, heads, n, n, 64, 64};
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto* x : {&q, &k, &v}) {
      x->resize(shape.q_size());
      for (float& e : *x) e = u(rng);
    }
    out.resize(shape.out_size());
    options.scale = 1.0f / std::sqrt(64.0f);
  }
  attn::Inputs inputs() const { return {shape, q.data(), k.data(), v.data()}; }
};

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MapC = Eigen::Map<const Matrix>;

// Attention as an ML framework computes it: every score materialised, Eigen's GEMMs.
void eigen_materialised(const Problem& p, float* out) {
  const attn::Shape& s = p.shape;
  for (int h = 0; h < s.heads; ++h) {
    const MapC Q(p.q.data() + std::size_t(h) * s.nq * s.dk, s.nq, s.dk);
    const MapC K(p.k.data() + std::size_t(h) * s.nk * s.dk, s.nk, s.dk);
    const MapC V(p.v.data() + std::size_t(h) * s.nk * s.dv, s.nk, s.dv);
    Matrix S = (Q * K.transpose()) * p.options.scale;                 // (nq, nk)
    S = (S.colwise() - S.rowwise().maxCoeff()).array().exp().matrix();  // stable softmax
    S.array().colwise() /= S.rowwise().sum().array();
    Eigen::Map<Matrix>(out + std::size_t(h) * s.nq * s.dv, s.nq, s.dv).noalias() = S * V;
  }
}

template <class Run>
void measure(benchmark::State& state, Run run) {
  const int heads = int(state.range(0)), n = int(state.range(1));
  Problem p(heads, n);
  const long base = g_live;
  g_peak = base;
  for (auto _ : state) {
    run(p);
    benchmark::DoNotOptimize(p.out.data());
  }
  const double flops = 4.0 * heads * double(n) * n * 64;
  state.counters["GFLOPS"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak_MiB"] = double(g_peak - base) / (1 << 20);
}

void BM_reference(benchmark::State& state) {
  measure(state, [](Problem& p) {
    attn::forward(p.inputs(), p.options, p.out.data(), attn::Kernel::reference);
  });
}
void BM_eigen(benchmark::State& state) {
  measure(state, [](Problem& p) { eigen_materialised(p, p.out.data()); });
}
void BM_tiled(benchmark::State& state) {
  measure(state, [](Problem& p) { attn::tiled_forward(p.inputs(), p.options, p.out.data()); });
}

// (heads, n): one head at n = 128 … 4096, and 8 heads × 512.
void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"heads", "n"});
  for (int n = 128; n <= 4096; n *= 2) b->Args({1, n});
  b->Args({8, 512});
  b->Unit(benchmark::kMillisecond)->MinTime(0.2);
}

BENCHMARK(BM_reference)->Apply(sizes);
BENCHMARK(BM_eigen)->Apply(sizes);
BENCHMARK(BM_tiled)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
