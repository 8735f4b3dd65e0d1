#include "scaling.h"

#include <cmath>
#include <stdexcept>

#include "contract.h"  // attn::io::scale_name: the series are named as the contract names scales
#include "sampling.h"

namespace experiments {

namespace {

// 256 × 256 scores give 65,536 samples of q·k: the measured variances land within a few
// percent of d_k and 1, and the histograms are smooth.
constexpr int kQueries = 256;
constexpr int kKeys = 256;
// The sweep only needs means over rows, which settle with fewer queries.
constexpr int kSweepQueries = 32;
constexpr int kBins = 40;
constexpr double kHistogramSigmas = 4;  // the histograms span ±4 standard deviations
// The raw scores' histogram keeps one axis for every d_k, ±4 standard deviations at the largest
// (±4√512 ≈ ±90.5), so that its spread widens on screen as d_k grows rather than only its tick
// labels changing. Bins about one unit wide still give d_k = 1 (spread 1) a shape of a few bars.
constexpr int kRawBins = 160;

constexpr std::array<attn::ScaleMode, 3> kModes{attn::ScaleMode::none, attn::ScaleMode::inv_sqrt_dk,
                                                attn::ScaleMode::inv_dk};

attn::HeadTrace trace_of(const Problem& p, attn::ScaleMode mode) {
  attn::Options o;
  o.scale = attn::scale_for(mode, p.shape.dk);
  return attn::reference_forward(p.inputs(), o).heads.front();
}

Problem unit_variance_problem(int queries, int dk, std::uint32_t seed) {
  attn::Shape s;
  s.nq = queries;
  s.nk = kKeys;
  s.dk = dk;
  s.dv = 1;  // the values play no part in this experiment
  return random_problem(s, seed);
}

}  // namespace

ScalingData scaling(int dk, std::uint32_t seed) {
  if (dk < 1 || dk > kScalingMaxDk)
    throw std::invalid_argument("d_k must be between 1 and " + std::to_string(kScalingMaxDk));
  ScalingData d;
  d.dk = dk;
  d.seed = seed;
  d.queries = kQueries;
  d.keys = kKeys;
  d.uniform_entropy = std::log(double(kKeys));

  const Problem p = unit_variance_problem(kQueries, dk, seed);
  for (std::size_t m = 0; m < kModes.size(); ++m) {
    const attn::HeadTrace t = trace_of(p, kModes[m]);
    ScaleSeries& series = d.scales[m];
    series.name = attn::io::scale_name(kModes[m]);
    series.scale = attn::scale_for(kModes[m], dk);
    series.sample_weights.assign(t.weights.row(0).begin(), t.weights.row(0).end());
    if (kModes[m] == attn::ScaleMode::inv_sqrt_dk) {
      d.raw = histogram(t.raw, kHistogramSigmas * std::sqrt(double(kScalingMaxDk)), kRawBins, dk);
      d.scaled = histogram(t.scaled, kHistogramSigmas, kBins, 1.0);
      d.variance_raw = variance(t.raw);
      d.variance_scaled = variance(t.scaled);
    }
  }

  for (int sweep_dk = 1; sweep_dk <= kScalingMaxDk; sweep_dk *= 2) {
    d.sweep_dk.push_back(sweep_dk);
    const Problem sp = unit_variance_problem(kSweepQueries, sweep_dk, seed);
    for (std::size_t m = 0; m < kModes.size(); ++m) {
      const attn::HeadTrace t = trace_of(sp, kModes[m]);
      d.scales[m].entropy.push_back(mean_row_entropy(t.weights));
      d.scales[m].max_weight.push_back(mean_row_max(t.weights));
    }
  }
  return d;
}

}  // namespace experiments
