#include <cstddef>
#include <iterator>

#include "contract.h"

namespace attn::io {

namespace {
// In the kernel's enums' order.
constexpr const char* kCausalNames[] = {"none", "top_left", "bottom_right"};
constexpr const char* kScaleNames[] = {"inv_sqrt_dk", "none", "inv_dk"};
static_assert(int(Causal::none) == 0 && int(Causal::top_left) == 1 && int(Causal::bottom_right) == 2);
static_assert(int(ScaleMode::inv_sqrt_dk) == 0 && int(ScaleMode::none) == 1 && int(ScaleMode::inv_dk) == 2);
}  // namespace

const char* causal_name(Causal causal) { return kCausalNames[std::size_t(causal)]; }

bool parse_causal_name(std::string_view name, Causal& out) {
  for (std::size_t i = 0; i < std::size(kCausalNames); ++i)
    if (name == kCausalNames[i]) {
      out = Causal(i);
      return true;
    }
  return false;
}

const char* scale_name(ScaleMode mode) {
  const std::size_t i = std::size_t(mode);
  return i < std::size(kScaleNames) ? kScaleNames[i] : nullptr;
}

bool parse_scale_name(std::string_view name, ScaleMode& out) {
  for (std::size_t i = 0; i < std::size(kScaleNames); ++i)
    if (name == kScaleNames[i]) {
      out = ScaleMode(i);
      return true;
    }
  return false;
}

}  // namespace attn::io
