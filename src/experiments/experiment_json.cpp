#include "experiment_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "contract.h"  // the contract's names of the kernel's choices

namespace experiments {

namespace {

// Float numbers, so each value prints as the shortest decimal that reads back as the same float.
using json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, float>;

json number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return float(x);
}

template <class Container>
json array(const Container& values) {
  json a = json::array();
  for (const auto x : values) a.push_back(number(x));
  return a;
}

json ints(const std::vector<int>& values) { return json(values); }

json matrix(const attn::Matrix& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(array(m.row(i)));
  return rows;
}

const char* name_of(attn::Softmax s) { return s == attn::Softmax::stable ? "stable" : "naive"; }

const char* name_of(attn::Precision p) { return p == attn::Precision::float32 ? "float32" : "float16"; }

const char* name_of(attn::Mask::Kind k) {
  switch (k) {
    case attn::Mask::Kind::none: return "none";
    case attn::Mask::Kind::boolean: return "boolean";
    case attn::Mask::Kind::additive: return "additive";
  }
  return "none";
}

json options(const attn::Options& o) {
  return {{"scale", number(o.scale)},          {"causal", attn::io::causal_name(o.causal)},
          {"mask", name_of(o.mask.kind)},      {"mask_fill", number(o.mask_fill)},
          {"softmax", name_of(o.softmax)},     {"precision", name_of(o.precision)}};
}

json histogram(const Histogram& h) {
  return {{"edges", array(h.edges)},     {"centres", array(h.centres)},
          {"counts", ints(h.counts)},    {"density", array(h.density)},
          {"normal_density", array(h.normal_density)}};
}

json to_json(const ScalingData& d) {
  json scales = json::array();
  for (const ScaleSeries& s : d.scales)
    scales.push_back({{"name", s.name},
                      {"scale", number(s.scale)},
                      {"sample_weights", array(s.sample_weights)},
                      {"entropy", array(s.entropy)},
                      {"max_weight", array(s.max_weight)}});
  return {{"view", "scaling"},
          {"dk", d.dk},
          {"seed", d.seed},
          {"queries", d.queries},
          {"keys", d.keys},
          {"histogram_raw", histogram(d.raw)},
          {"histogram_scaled", histogram(d.scaled)},
          {"variance_raw", number(d.variance_raw)},
          {"variance_scaled", number(d.variance_scaled)},
          {"scales", scales},
          {"sweep_dk", ints(d.sweep_dk)},
          {"uniform_entropy", number(d.uniform_entropy)}};
}

json to_json(const GradientsData& d) {
  return {{"view", "gradients"},
          {"scale_multiplier", number(d.scale_multiplier)},
          {"scale", number(d.scale)},
          {"seed", d.seed},
          {"selected_query", d.selected_query},
          {"n", d.n},
          {"dk", d.dk},
          {"dv", d.dv},
          {"scores", matrix(d.scores)},
          {"weights", matrix(d.weights)},
          {"d_output", matrix(d.d_output)},
          {"d_weights", matrix(d.d_weights)},
          {"d_scores", matrix(d.d_scores)},
          {"d_q", matrix(d.d_q)},
          {"d_k", matrix(d.d_k)},
          {"d_v", matrix(d.d_v)},
          {"jacobian", matrix(d.jacobian)},
          {"sweep_multiplier", array(d.sweep_multiplier)},
          {"key_grad_norm", matrix(d.key_grad_norm)},
          {"key_score_grad", matrix(d.key_score_grad)},
          {"max_weight", array(d.max_weight)},
          {"d_scores_norm", array(d.d_scores_norm)},
          {"d_q_norm", array(d.d_q_norm)},
          {"d_k_norm", array(d.d_k_norm)}};
}

json to_json(const PitfallsData& d) {
  json cases = json::array();
  for (const PitfallCase& c : d.cases)
    cases.push_back({{"name", c.name},
                     {"right", options(c.right)},
                     {"wrong", options(c.wrong)},
                     {"weights_right", matrix(c.weights_right)},
                     {"weights_wrong", matrix(c.weights_wrong)},
                     {"weights_difference", matrix(c.weights_difference)},
                     {"output_right", matrix(c.output_right)},
                     {"output_wrong", matrix(c.output_wrong)},
                     {"output_difference", matrix(c.output_difference)},
                     {"future_weight", array(c.future_weight)},
                     {"nan_rows", c.nan_rows}});
  return {{"view", "pitfalls"}, {"seed", d.seed},         {"n", d.n},         {"dk", d.dk},
          {"dv", d.dv},         {"q", matrix(d.q)},       {"k", matrix(d.k)}, {"v", matrix(d.v)},
          {"padding_key", d.padding_key}, {"cases", cases}};
}

json to_json(const StabilityData& d) {
  json series = json::array();
  for (const SoftmaxSeries& s : d.series)
    series.push_back({{"name", s.name},
                      {"softmax", name_of(s.softmax)},
                      {"precision", name_of(s.precision)},
                      {"largest_exp", array(s.largest_exp)},
                      {"max_weight", array(s.max_weight)},
                      {"first_overflow", number(s.first_overflow)},
                      {"first_nan", number(s.first_nan)}});
  json fills = json::array();
  for (const MaskFillCase& c : d.mask_fills)
    fills.push_back({{"name", c.name},
                     {"fill", number(c.fill)},
                     {"precision", name_of(c.precision)},
                     {"stored_fill", number(c.stored_fill)},
                     {"weights", matrix(c.weights)}});
  return {{"view", "stability"},
          {"seed", d.seed},
          {"pattern", array(d.pattern)},
          {"magnitude", array(d.magnitude)},
          {"magnitude_step", number(d.magnitude_step)},
          {"predicted_overflow_float32", number(d.predicted_overflow_float32)},
          {"predicted_overflow_float16", number(d.predicted_overflow_float16)},
          {"series", series},
          {"mask_keys", d.mask_keys},
          {"mask_fills", fills}};
}

json to_json(const TilingData& d) {
  json partial = json::array();
  for (const attn::Matrix& m : d.walk.partial_output) partial.push_back(matrix(m));
  return {{"view", "tiling"},
          {"n", d.n},
          {"tile", d.tile},
          {"tiles", d.walk.tiles},
          {"dk", d.dk},
          {"dv", d.dv},
          {"seed", d.seed},
          {"tile_max", matrix(d.walk.tile_max)},
          {"running_max", matrix(d.walk.running_max)},
          {"rescale", matrix(d.walk.rescale)},
          {"running_sum", matrix(d.walk.running_sum)},
          {"partial_output", partial},
          {"walk_output", matrix(d.walk.output)},
          {"reference_output", matrix(d.reference_output)},
          {"tiled_output", matrix(d.tiled_output)},
          {"walk_difference", number(d.walk_difference)},
          {"tiled_difference", number(d.tiled_difference)},
          {"memory_n", ints(d.memory_n)},
          {"score_bytes", array(d.score_bytes)},
          {"tiled_bytes", array(d.tiled_bytes)}};
}

json to_json(const HeadsData& d) {
  json heads = json::array();
  for (const HeadView& h : d.heads)
    heads.push_back({{"head", h.head}, {"kv_head", h.kv_head}, {"weights", matrix(h.weights)}, {"output", matrix(h.output)}});
  const attn::Shape& s = d.shape;
  return {{"view", "heads"},
          {"seed", d.seed},
          {"batch", s.batch},
          {"heads", s.heads},
          {"kv_heads", s.kv_heads},
          {"nq", s.nq},
          {"nk", s.nk},
          {"dk", s.dk},
          {"dv", s.dv},
          {"cross", d.cross},
          {"q_shape", d.q_shape},
          {"k_shape", d.k_shape},
          {"v_shape", d.v_shape},
          {"weights_shape", d.weights_shape},
          {"output_shape", d.output_shape},
          {"concat_shape", d.concat_shape},
          {"head_views", heads},
          {"concatenated", matrix(d.concatenated)},
          {"groups", d.groups}};
}

// Byte and FLOP counts are whole numbers past float32's 2^24: written as integers, exactly.
json counts(const std::vector<double>& values) {
  json a = json::array();
  for (const double x : values) a.push_back(std::int64_t(x));
  return a;
}

json to_json(const CostData& d) {
  json reference_samples = json::array(), tiled_samples = json::array();
  for (const auto& s : d.reference_samples) reference_samples.push_back(array(s));
  for (const auto& s : d.tiled_samples) tiled_samples.push_back(array(s));
  return {{"view", "cost"},
          {"dk", d.dk},
          {"status", status_name(d.status)},
          {"progress", number(d.progress)},
          {"activity", d.activity},
          {"simd", d.simd},
          {"peak_gflops", number(d.peak_gflops)},
          {"bandwidth_gbs", number(d.bandwidth_gbs)},
          {"balance", number(d.balance)},
          {"memory_limit", std::int64_t(d.memory_limit)},
          {"sizes", ints(d.sizes)},
          {"flops", counts(d.flops)},
          {"reference_ms", array(d.reference_ms)},
          {"tiled_ms", array(d.tiled_ms)},
          {"reference_gflops", array(d.reference_gflops)},
          {"tiled_gflops", array(d.tiled_gflops)},
          {"reference_samples", reference_samples},
          {"tiled_samples", tiled_samples},
          {"repetitions", ints(d.repetitions)},
          {"fits", d.fits},
          {"qk_intensity", array(d.qk_intensity)},
          {"reference_intensity", array(d.reference_intensity)},
          {"tiled_intensity", array(d.tiled_intensity)},
          {"memory_n", ints(d.memory_n)},
          {"score_bytes", counts(d.score_bytes)},
          {"reference_bytes", counts(d.reference_bytes)},
          {"tiled_bytes", counts(d.tiled_bytes)}};
}

}  // namespace

std::string experiment_json(const ExperimentData& data) {
  return std::visit([](const auto& d) { return to_json(d).dump(); }, data);
}

}  // namespace experiments
