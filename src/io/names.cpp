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

template <class E, std::size_t N>
bool parse_in(const char* const (&names)[N], std::string_view name, E& out) {
  for (std::size_t i = 0; i < N; ++i)
    if (name == names[i]) {
      out = E(i);
      return true;
    }
  return false;
}
}  // namespace

const char* causal_name(Causal causal) { return kCausalNames[std::size_t(causal)]; }

bool parse_causal_name(std::string_view name, Causal& out) { return parse_in(kCausalNames, name, out); }

const char* scale_name(ScaleMode mode) {
  const std::size_t i = std::size_t(mode);
  return i < std::size(kScaleNames) ? kScaleNames[i] : nullptr;
}

bool parse_scale_name(std::string_view name, ScaleMode& out) { return parse_in(kScaleNames, name, out); }

}  // namespace attn::io
