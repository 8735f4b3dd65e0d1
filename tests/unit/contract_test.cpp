// The JSON contract end to end, in process (natively and in WebAssembly): the ONNX
// conformance cases through both kernels, the table of bad requests, and response shapes.
#include <gtest/gtest.h>

#include "contract.h"
#include "test_data.h"

using nlohmann::json;
using namespace testing_ref;

TEST(Contract, ConformanceCasesThroughBothKernels) {
  const std::vector<std::string> files = conformance_files();
  EXPECT_EQ(files.size(), 40u);
  for (const std::string& file : files) {
    const json c = json::parse(read_file(file));
    std::vector<double> want;
    flatten(c["expected"]["output"], want);
    const double atol = c["atol"].get<double>();
    for (const char* kernel : {"reference", "tiled", "auto"}) {
      SCOPED_TRACE(file + " with kernel " + kernel);
      json request = c["request"];
      request["kernel"] = kernel;
      bool ok = false;
      const json response = json::parse(attn::io::compute_json(request.dump(), &ok));
      ASSERT_TRUE(ok) << response.dump();
      std::vector<double> got;
      flatten(response["output"], got);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], atol) << "output element " << i;
    }
  }
}

TEST(Contract, BadRequestsGetTheirError) {
  const json table = json::parse(read_file(std::string(ATTN_TEST_DATA_DIR) + "/bad_requests.json"));
  ASSERT_GT(table.size(), 20u);
  for (const json& c : table) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::string text = c.contains("raw") ? c["raw"].get<std::string>() : c["request"].dump();
    bool ok = true;
    const json response = json::parse(attn::io::compute_json(text, &ok));
    EXPECT_FALSE(ok);
    EXPECT_EQ(response, json({{"error", c["error"]}}));
  }
}

TEST(Contract, RequestsBeyondTheLimitsAreRefused) {
  // 4097 × 4097 scores per head is just past the limit for outputs that hold them all.
  const json row = json::array({0.5});
  json q = json::array();
  for (int i = 0; i < 4097; ++i) q.push_back(row);
  json request{{"q", q}, {"k", q}, {"v", q}, {"outputs", {"weights"}}};
  const json response = json::parse(attn::io::compute_json(request.dump()));
  EXPECT_EQ(response["error"], "request: 16785409 scores exceed the limit of 16777216 for weights, scores, "
                               "gradients or the reference kernel");
  // The output alone goes through the tiled kernel and never holds the scores.
  request["outputs"] = {"output"};
  bool ok = false;
  const json fine = json::parse(attn::io::compute_json(request.dump(), &ok));
  ASSERT_TRUE(ok);
  EXPECT_NEAR(fine["output"][4096][0].get<double>(), 0.5, 1e-6);
}

TEST(Contract, ResponsesKeepTheRequestRankAndSpellBlockedScores) {
  const json rank2 = json::parse(attn::io::compute_json(
      R"({"q":[[1,0],[0,1]],"k":[[1,0],[0,1],[1,1]],"v":[[1],[2],[3]],"causal":"bottom_right",
          "outputs":["output","weights","scores","grad_q","grad_k","grad_v"],"grad_output":[[1],[0]]})"));
  ASSERT_FALSE(rank2.contains("error")) << rank2.dump();
  EXPECT_EQ(rank2["output"].size(), 2u);
  EXPECT_EQ(rank2["output"][0].size(), 1u);
  EXPECT_EQ(rank2["weights"][0].size(), 3u);
  // Bottom-right: query 0 of 2 sees keys j <= 0 + (3 − 2) = 1, so key 2 is blocked.
  EXPECT_EQ(rank2["scores"][0][2], "-inf");
  EXPECT_EQ(rank2["weights"][0][2], 0.0);
  EXPECT_EQ(rank2["grad_k"].size(), 3u);
  EXPECT_EQ(rank2["grad_v"][2].size(), 1u);

  const json rank3 = json::parse(attn::io::compute_json(
      R"({"q":[[[1]],[[2]]],"k":[[[1]]],"v":[[[4]]],"outputs":["weights"]})"));
  ASSERT_FALSE(rank3.contains("error")) << rank3.dump();
  EXPECT_EQ(rank3.size(), 1u) << "only what was asked for";
  EXPECT_EQ(rank3["weights"], json::parse("[[[1.0]],[[1.0]]]"));
}

TEST(Contract, ScoresNearTheFloat32RangeStayExact) {
  // Scores of ±1e36 are within the range check's bound: a single key weighs exactly 1, and of
  // two keys the larger score takes everything, through either kernel.
  for (const char* kernel : {"reference", "tiled"}) {
    SCOPED_TRACE(kernel);
    for (const char* q : {"1e18", "-1e18"}) {
      const std::string one = std::string(R"({"q":[[)") + q + R"(]],"k":[[1e18]],"v":[[3]],"kernel":")" + kernel + "\"}";
      EXPECT_EQ(json::parse(attn::io::compute_json(one)), json::parse(R"({"output":[[3.0]]})")) << one;
    }
    const std::string two = std::string(R"({"q":[[1e18]],"k":[[1e18],[-1e18]],"v":[[3],[5]],"kernel":")") + kernel + "\"}";
    EXPECT_EQ(json::parse(attn::io::compute_json(two)), json::parse(R"({"output":[[3.0]]})")) << two;
  }
}

TEST(Contract, SizesAreCheckedWhileParsing) {
  // One entry past the tensor limit, in a request cut short after it: the limit is reported
  // (the parser never held more than the limit), not the broken JSON that comes later.
  std::string text = R"({"q": [[0)";
  for (std::size_t i = 0; i < attn::io::Limits::max_tensor_elements; ++i) text += ",0";
  text += R"(]], "k": )";
  EXPECT_EQ(json::parse(attn::io::compute_json(text))["error"], "q: more than 16777216 elements, the limit of this build");
}
