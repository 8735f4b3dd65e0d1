// Size arithmetic: 64 bits on every target, saturating rather than wrapping. In WebAssembly
// std::size_t and long are 32 bits, so these products once wrapped and slipped past limits.
#include <gtest/gtest.h>

#include "attention.h"
#include "contract.h"

TEST(Shape, SizesDoNotWrapPast2To32) {
  const attn::Shape wraps32{65536, 65536, 1, 1, 1, 1, 1};  // batch × heads = 2^32
  EXPECT_EQ(wraps32.q_size(), std::uint64_t(1) << 32);
  EXPECT_EQ(wraps32.weights_size(), std::uint64_t(1) << 32);
  EXPECT_EQ(wraps32.k_size(), 65536u);
  const attn::Shape wraps64{65537, 65537, 65537, 65537, 65537, 65537, 65537};  // 65537^4 > 2^64
  EXPECT_EQ(wraps64.q_size(), attn::kTooMany);
  EXPECT_EQ(attn::elements({-1, 2}), attn::kTooMany);
}

TEST(Shape, LimitsSeeProductsThatWrap2To32) {
  // 65536 × 65536 scores are 0 in 32-bit arithmetic.
  const attn::Shape s{1, 1, 1, 65536, 65536, 1, 1};
  try {
    attn::io::check_score_limit(s, true);
    FAIL() << "no error";
  } catch (const attn::io::RequestError& e) {
    EXPECT_STREQ(e.what(), "request: 4294967296 scores exceed the limit of 16777216 for weights, scores, "
                           "gradients or the reference kernel");
  }
  EXPECT_THROW(attn::io::check_tensor_elements("q", attn::Shape{65536, 65536, 1, 1, 1, 1, 1}.q_size()),
               attn::io::RequestError);
  // Where pointers are 32 bits, 2^32 floats cannot even be addressed.
  const std::string problem = attn::validate({65536, 65536, 1, 1, 1, 1, 1});
  EXPECT_EQ(problem, sizeof(void*) == 4 ? "the tensors have more elements than this target can address" : "");
}
