// Each experiment's JSON carries the documented keys, numbers equal to the struct's, and
// NaN/∞ spelled as strings.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "experiment_json.h"

using nlohmann::json;

namespace {

json parsed(const experiments::ExperimentData& d) { return json::parse(experiments::experiment_json(d)); }

void expect_keys(const json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) EXPECT_TRUE(j.contains(k)) << j.value("view", "?") << " lacks " << k;
}

TEST(ExperimentsJson, Scaling) {
  const experiments::ScalingData d = experiments::scaling(16, 1);
  const json j = parsed(d);
  EXPECT_EQ(j["view"], "scaling");
  expect_keys(j, {"dk", "variance_raw", "variance_scaled", "histogram_raw", "histogram_scaled", "scales", "sweep_dk",
                  "uniform_entropy"});
  EXPECT_EQ(j["dk"], 16);
  EXPECT_FLOAT_EQ(j["variance_raw"].get<float>(), float(d.variance_raw));
  EXPECT_FLOAT_EQ(j["variance_scaled"].get<float>(), float(d.variance_scaled));
  expect_keys(j["histogram_raw"], {"edges", "centres", "counts", "density", "normal_density"});
  ASSERT_EQ(j["scales"].size(), 3u);
  expect_keys(j["scales"][1], {"name", "scale", "sample_weights", "entropy", "max_weight"});
  EXPECT_EQ(j["scales"][1]["entropy"].size(), j["sweep_dk"].size());
}

TEST(ExperimentsJson, Gradients) {
  const json j = parsed(experiments::gradients(2.0f, 1, 1));
  EXPECT_EQ(j["view"], "gradients");
  expect_keys(j, {"scale", "selected_query", "scores", "weights", "d_output", "d_weights", "d_scores", "d_q", "d_k",
                  "d_v", "jacobian", "sweep_multiplier", "key_grad_norm", "key_score_grad", "max_weight",
                  "d_scores_norm"});
  EXPECT_EQ(j["jacobian"].size(), std::size_t(j["n"].get<int>()));
  EXPECT_EQ(j["key_grad_norm"].size(), j["sweep_multiplier"].size());
}

TEST(ExperimentsJson, PitfallsSpellNaNAsAString) {
  const json j = parsed(experiments::pitfalls(1));
  EXPECT_EQ(j["view"], "pitfalls");
  ASSERT_EQ(j["cases"].size(), 6u);
  const json& last = j["cases"][5];
  expect_keys(last, {"name", "right", "wrong", "weights_right", "weights_wrong", "weights_difference",
                     "output_right", "output_wrong", "output_difference", "future_weight", "nan_rows"});
  EXPECT_EQ(last["name"], "fully_masked_row");
  EXPECT_EQ(last["weights_wrong"][0][0], "nan");
  EXPECT_EQ(last["wrong"]["softmax"], "naive");
  EXPECT_EQ(last["right"]["mask_fill"], "-inf");
}

TEST(ExperimentsJson, Stability) {
  const json j = parsed(experiments::stability(1));
  EXPECT_EQ(j["view"], "stability");
  expect_keys(j, {"pattern", "magnitude", "magnitude_step", "predicted_overflow_float32", "predicted_overflow_float16",
                  "series", "mask_fills"});
  ASSERT_EQ(j["series"].size(), 4u);
  EXPECT_EQ(j["series"][0]["name"], "naive_float32");
  EXPECT_EQ(j["series"][0]["largest_exp"].back(), "inf");
  EXPECT_EQ(j["series"][1]["first_overflow"], "nan");  // the stable softmax never overflows
  EXPECT_EQ(j["mask_fills"][3]["stored_fill"], "-inf");
}

TEST(ExperimentsJson, Tiling) {
  const json j = parsed(experiments::tiling(10, 4, 1));
  EXPECT_EQ(j["view"], "tiling");
  expect_keys(j, {"n", "tile", "tiles", "tile_max", "running_max", "rescale", "running_sum", "partial_output",
                  "walk_output", "reference_output", "tiled_output", "walk_difference", "tiled_difference", "memory_n",
                  "score_bytes", "tiled_bytes"});
  EXPECT_EQ(j["tiles"], 3);
  EXPECT_EQ(j["running_max"][0].size(), 3u);
  EXPECT_EQ(j["partial_output"].size(), 3u);
}

TEST(ExperimentsJson, Heads) {
  const json j = parsed(experiments::heads(4, 2, 3, 5, 4, 2, 1));
  EXPECT_EQ(j["view"], "heads");
  expect_keys(j, {"heads", "kv_heads", "nq", "nk", "dk", "dv", "cross", "q_shape", "k_shape", "v_shape", "weights_shape",
                  "output_shape", "concat_shape", "head_views", "concatenated", "groups"});
  EXPECT_EQ(j["head_views"].size(), 4u);
  EXPECT_EQ(j["groups"][1], json({2, 3}));
  EXPECT_EQ(j["concat_shape"], json({1, 3, 8}));
}

}  // namespace
