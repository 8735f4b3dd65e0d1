// Experiment "cost" (issue 14): the price of attention as the sequence grows, measured on this
// machine. The reference (which materialises every n × n intermediate) and the tiled SIMD
// kernel (which never holds one) run on self-attention with d_k = d_v = 64 at n = 64 … 4096;
// beside their times stand the lesson's formulas: FLOPs, memory and arithmetic intensity, and
// the machine's balance measured in the same run (a SIMD multiply-add loop, a copy).
//
// The measurement advances in slices (CostMeasurement::advance) so that a page can draw
// between them: each slice runs whole chunks of about 2^16 (reference) or 2^18 (tiled) score
// cells, that is a block of query rows of a large n, or several calls at a small n. Query rows
// are independent, so a pass over every block does the work of one call over all n, with the
// same FLOPs and the same bytes written per row.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace experiments {

inline constexpr int kCostDk = 64;
inline constexpr int kCostMinN = 64, kCostMaxN = 4096;  // the measured sizes: powers of 2
inline constexpr int kCostMemoryMaxN = 65536;            // the memory plot's formulas go further
// The n × n float32 matrices one reference call keeps (attn::HeadTrace): raw, scaled, mask,
// masked, exps and weights.
inline constexpr int kReferenceMatrices = 6;

// [SECTION] the lesson's formulas, at d_k = d_v = dk
// QKᵀ and A·V take 2 n² d_k each; the scale, mask and softmax add O(n²), left out.
double attention_flops(int n, int dk);
// One n × n float32 matrix: 4 n² bytes (what the lesson counts per head).
double score_bytes(int n);
// What one reference call over n queries holds: kReferenceMatrices × 4 n² bytes.
double reference_bytes(int n);
// The tiled kernel's scratch (attn::tiled_scratch_floats × 4): the same at every n.
double tiled_bytes(int dk);
// Of S = QKᵀ materialised: 2 n² d_k FLOPs over 4(2 n d_k + n²) bytes (read Q and K, write S)
// = n d_k / (2(2 d_k + n)), which tends to d_k / 2 for long sequences.
double qk_intensity(int n, int dk);
// Of a whole reference call, at most: 4 n² d_k FLOPs over Q, K and V read and O written
// (16 n d_k bytes) and each of its kReferenceMatrices n × n matrices written once and read once
// (48 n² bytes; a pass that reads one twice only lowers it) = n d_k / (12 n + 4 d_k), which
// tends to d_k / 12: about 5 FLOPs a byte at d_k = 64, below any processor's balance.
double reference_intensity(int n, int dk);
// Of the tiled kernel if Q, K and V are read once and O written once (the key tiles stay in
// cache): 4 n² d_k FLOPs over 16 n d_k bytes = n / 4, growing with n.
double tiled_intensity(int n, int dk);
// Repetitions per size, of which the median is kept: more where a pass is short.
int cost_repetitions(int n);
// The most memory the program may hold: the WebAssembly heap's maximum in a page, the
// physical memory natively.
double memory_limit_bytes();

// [SECTION] the data
enum class CostStatus { idle, running, done };
const char* status_name(CostStatus s);

struct CostData {
  int dk = kCostDk;
  CostStatus status = CostStatus::idle;
  double progress = 0;           // share of the planned score cells done, 0 … 1
  std::string activity;          // what runs now ("" when idle or done)
  std::string simd;              // the tiled kernel's and the peak loop's (attn::tiled_instruction_set())
  // The machine, measured first (NaN until then).
  double peak_gflops = NAN;      // attn::madd_chains: multiply-adds alone, one thread
  double bandwidth_gbs = NAN;    // a copy of 32 MiB, bytes read + written per second
  double balance = NAN;          // peak_gflops / bandwidth_gbs, FLOPs per byte
  double memory_limit = 0;       // memory_limit_bytes()
  // Per measured size (sizes: 64, 128, … 4096). Times are medians in milliseconds; NaN until
  // measured, and the reference's stays NaN where it does not fit.
  std::vector<int> sizes;
  std::vector<double> flops;                        // attention_flops(n, dk)
  std::vector<double> reference_ms, tiled_ms;
  std::vector<double> reference_gflops, tiled_gflops;  // flops / time
  std::vector<std::vector<double>> reference_samples, tiled_samples;  // every pass, ms
  std::vector<int> repetitions;                     // cost_repetitions(n)
  std::vector<bool> fits;                           // reference_bytes(n) <= memory_limit
  std::vector<double> qk_intensity, reference_intensity, tiled_intensity;
  // The formulas over a wider range (memory_n: 64 … 65536).
  std::vector<int> memory_n;
  std::vector<double> score_bytes, reference_bytes, tiled_bytes;
};

// The sizes and formulas, nothing measured: what the view shows before "Measure".
CostData cost_plan(double memory_limit = memory_limit_bytes());

// One measurement from start to end. Inputs are N(0, 1) from a fixed seed; the scale is
// 1/√d_k, without mask.
class CostMeasurement {
 public:
  explicit CostMeasurement(double memory_limit = memory_limit_bytes());
  // Runs whole chunks until `budget_ms` would be exceeded (at least one) or the end.
  void advance(double budget_ms);
  bool finished() const { return data_.status == CostStatus::done; }
  const CostData& data() const { return data_; }

 private:
  void machine_balance();
  void set_peak(double gflops);  // and the balance, over the measured bandwidth
  void chunk();  // the next chunk of the current size, kernel and repetition
  void next_pass(double pass_ms);

  CostData data_;
  std::vector<float> q_, k_, v_, out_;  // kCostMaxN rows each
  bool balanced_ = false;
  std::size_t size_ = 0;   // index into data_.sizes
  int repetition_ = 0;
  int kernel_ = 0;         // 0: reference, 1: tiled
  int row_ = 0;            // first query row of the next chunk
  double pass_ms_ = 0;     // this pass's time so far
  double cells_done_ = 0, cells_planned_ = 0;
  double last_chunk_ms_ = 0;
};

}  // namespace experiments
