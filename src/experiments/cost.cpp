#include "cost.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "peak.h"
#include "reference.h"
#include "sampling.h"
#include "simd.h"
#include "tiled.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <unistd.h>
#endif

namespace experiments {

// [SECTION] the lesson's formulas

double attention_flops(int n, int dk) { return 4.0 * double(n) * n * dk; }

double score_bytes(int n) { return 4.0 * double(n) * n; }

double reference_bytes(int n) { return kReferenceMatrices * score_bytes(n); }

double tiled_bytes(int dk) { return 4.0 * double(attn::tiled_scratch_floats(dk)); }

double qk_intensity(int n, int dk) {
  const double t = n, d = dk;
  return 2 * t * t * d / (4 * (2 * t * d + t * t));
}

double reference_intensity(int n, int dk) {
  const double t = n, d = dk;
  return attention_flops(n, dk) / (16 * t * d + 2 * reference_bytes(n));
}

double tiled_intensity(int n, int dk) {
  const double t = n, d = dk;
  return attention_flops(n, dk) / (4 * (t * d + 2 * t * d + t * d));
}

int cost_repetitions(int n) { return n <= 1024 ? 5 : 3; }

double memory_limit_bytes() {
#ifdef __EMSCRIPTEN__
  return double(emscripten_get_heap_max());
#else
  return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
#endif
}

const char* status_name(CostStatus s) {
  switch (s) {
    case CostStatus::idle: return "idle";
    case CostStatus::running: return "running";
    case CostStatus::done: return "done";
  }
  return "idle";
}

CostData cost_plan(double memory_limit) {
  CostData d;
  d.simd = attn::tiled_instruction_set();
  d.memory_limit = memory_limit;
  for (int n = kCostMinN; n <= kCostMaxN; n *= 2) {
    d.sizes.push_back(n);
    d.flops.push_back(attention_flops(n, d.dk));
    d.repetitions.push_back(cost_repetitions(n));
    d.fits.push_back(reference_bytes(n) <= memory_limit);
    d.qk_intensity.push_back(qk_intensity(n, d.dk));
    d.reference_intensity.push_back(reference_intensity(n, d.dk));
    d.tiled_intensity.push_back(tiled_intensity(n, d.dk));
  }
  const std::size_t count = d.sizes.size();
  d.reference_ms = d.tiled_ms = d.reference_gflops = d.tiled_gflops = std::vector<double>(count, NAN);
  d.reference_samples = d.tiled_samples = std::vector<std::vector<double>>(count);
  for (int n = kCostMinN; n <= kCostMemoryMaxN; n *= 2) {
    d.memory_n.push_back(n);
    d.score_bytes.push_back(score_bytes(n));
    d.reference_bytes.push_back(reference_bytes(n));
    d.tiled_bytes.push_back(tiled_bytes(d.dk));
  }
  return d;
}

// [SECTION] the measurement

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Kept so the compiler cannot drop work whose result nothing reads.
volatile float g_sink = 0;

// Both machine loops are cut into calls of an out-of-line function, as the tiled kernel's hot
// code is: V8 runs a WebAssembly function first in its baseline compiler and swaps in the
// optimised code only between calls, so one long loop would be timed unoptimised.
namespace s = attn::simd;

// Peak: the best of five runs of 2^23 steps of attn::madd_chains (the peak is what the machine
// can do, not its average; the first run also pays for V8's tier-up), on the instruction set the
// tiled kernel runs with. A run lasts about 15 ms: a page that is not cross-origin isolated reads
// its clock to 100 µs, and the best of five 1 ms runs read 8% high.
double peak_gflops() {
  constexpr int kSteps = 1 << 12, kCalls = 1 << 11;
  double best = 0;
  float sink = 0;
  for (int run = 0; run < 5; ++run) {
    const Clock::time_point start = Clock::now();
    for (int call = 0; call < kCalls; ++call) sink += attn::madd_chains(kSteps);
    const double ms = ms_since(start);
    best = std::max(best, attn::madd_chains_flops(kSteps) * kCalls / (ms * 1e6));
  }
  g_sink = sink;
  return best;
}

[[gnu::noinline]] void copy_block(const float* from, float* to, std::size_t floats) {
  for (std::size_t i = 0; i < floats; i += s::kLanes) s::store(to + i, s::load(from + i));
}

// Bandwidth: copy 32 MiB (more than the caches hold) through the kernel's vector loads and
// stores, 256 KiB per call; each pass reads and writes every byte. The best of three passes.
double bandwidth_gbs() {
  constexpr std::size_t kFloats = std::size_t(32) << 20 >> 2, kBlock = std::size_t(256) << 10 >> 2;
  std::vector<float> from(kFloats, 1.0f), to(kFloats, 0.0f);  // touched: no first-use faults timed
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    from[run] = float(run);
    const Clock::time_point start = Clock::now();
    for (std::size_t i = 0; i < kFloats; i += kBlock) copy_block(from.data() + i, to.data() + i, kBlock);
    const double ms = ms_since(start);
    g_sink = to[run];
    best = std::max(best, 2.0 * kFloats * sizeof(float) / (ms * 1e6));
  }
  return best;
}

// A chunk is `calls` calls over `rows` query rows: about `cells` score cells, so that it is
// long enough for a coarse timer (a page's is 0.1 ms) and short enough for a slice.
struct Chunk {
  int rows, calls;
};
constexpr double kReferenceChunkCells = 1 << 16, kTiledChunkCells = 1 << 18;

Chunk chunk_of(int n, double cells) {
  const int rows = std::clamp(int(cells / n), 1, n);
  return {rows, rows == n ? std::max(1, int(cells / (double(n) * n))) : 1};
}

}  // namespace

CostMeasurement::CostMeasurement(double memory_limit) : data_(cost_plan(memory_limit)) {
  attn::Shape s;
  s.nq = s.nk = kCostMaxN;
  s.dk = s.dv = data_.dk;
  Problem p = random_problem(s, 1);
  q_ = std::move(p.q);
  k_ = std::move(p.k);
  v_ = std::move(p.v);
  out_.resize(std::size_t(kCostMaxN) * data_.dk);
  for (std::size_t i = 0; i < data_.sizes.size(); ++i) {
    const double cells = double(data_.sizes[i]) * data_.sizes[i] * data_.repetitions[i];
    cells_planned_ += cells * (data_.fits[i] ? 2 : 1);
  }
  data_.status = CostStatus::running;
  data_.activity = "measuring this machine's peak FLOP/s and bandwidth";
}

void CostMeasurement::advance(double budget_ms) {
  const Clock::time_point start = Clock::now();
  do {
    if (!balanced_) machine_balance();
    else chunk();
  } while (!finished() && ms_since(start) + last_chunk_ms_ <= budget_ms);
}

void CostMeasurement::machine_balance() {
  const Clock::time_point start = Clock::now();
  if (std::isnan(data_.peak_gflops)) {
    data_.peak_gflops = peak_gflops();
  } else {
    data_.bandwidth_gbs = bandwidth_gbs();
    set_peak(data_.peak_gflops);
    balanced_ = true;
  }
  last_chunk_ms_ = ms_since(start);
}

// The peak and the balance it sets over the measured bandwidth.
void CostMeasurement::set_peak(double gflops) {
  data_.peak_gflops = gflops;
  data_.balance = gflops / data_.bandwidth_gbs;
}

void CostMeasurement::chunk() {
  const int n = data_.sizes[size_], dk = data_.dk;
  if (kernel_ == 0 && !data_.fits[size_]) kernel_ = 1;  // one reference call would not fit: skip it
  const bool reference = kernel_ == 0;
  const Chunk c = chunk_of(n, reference ? kReferenceChunkCells : kTiledChunkCells);
  const int rows = std::min(c.rows, n - row_);
  attn::Inputs in;
  in.shape.nq = rows;
  in.shape.nk = n;
  in.shape.dk = in.shape.dv = dk;
  in.q = q_.data() + std::size_t(row_) * dk;
  in.k = k_.data();
  in.v = v_.data();
  attn::Options o;
  o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, dk);
  data_.activity = std::string(reference ? "reference" : "tiled kernel") + " at n = " + std::to_string(n) +
                   ", pass " + std::to_string(repetition_ + 1) + " of " + std::to_string(data_.repetitions[size_]);

  const Clock::time_point start = Clock::now();
  for (int call = 0; call < c.calls; ++call) {
    if (reference) g_sink = attn::reference_forward(in, o).heads.front().output(0, 0);
    else attn::tiled_forward(in, o, out_.data());
  }
  last_chunk_ms_ = ms_since(start);
  pass_ms_ += last_chunk_ms_ / c.calls;
  cells_done_ += double(rows) * n;
  data_.progress = std::min(1.0, cells_done_ / cells_planned_);
  row_ += rows;
  if (row_ >= n) next_pass(pass_ms_);
}

void CostMeasurement::next_pass(double pass_ms) {
  const std::size_t i = size_;
  const bool reference = kernel_ == 0;
  std::vector<double>& samples = (reference ? data_.reference_samples : data_.tiled_samples)[i];
  samples.push_back(pass_ms);
  const double ms = median(samples);
  (reference ? data_.reference_ms : data_.tiled_ms)[i] = ms;
  (reference ? data_.reference_gflops : data_.tiled_gflops)[i] = data_.flops[i] / (ms * 1e6);
  row_ = 0;
  pass_ms_ = 0;
  // Reference and tiled alternate within a size, so that a change in the machine's load
  // weighs on both alike.
  if (reference) {
    kernel_ = 1;
    return;
  }
  kernel_ = 0;
  if (++repetition_ < data_.repetitions[i]) return;
  repetition_ = 0;
  if (++size_ < data_.sizes.size()) return;
  // The peak once more, now that the page has settled (at the start V8 may still be compiling
  // on the other core): the better of the two is what the machine can do.
  set_peak(std::max(data_.peak_gflops, peak_gflops()));
  data_.status = CostStatus::done;
  data_.progress = 1;
  data_.activity.clear();
}

}  // namespace experiments
