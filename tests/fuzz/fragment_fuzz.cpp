// libFuzzer target: any bytes as a URL fragment. The parser must never crash, must leave a
// usable state (sizes within the limits, the query in range), and what it writes back as
// a link must read back as the same state.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lab::ParseResult r = lab::parse_fragment(text, lab::State{});
  const lab::State& s = r.state;
  using L = lab::Limits;
  const int max_d = s.view == lab::View::scaling ? L::max_scaling_dk : L::max_d;  // self-attention's d_v is d_k
  if (s.nq < 1 || s.nq > L::max_n || s.nk < 1 || s.nk > L::max_n || s.dk < 1 || s.dk > max_d ||
      s.dv < 1 || s.dv > max_d || s.query < 0 || s.query >= s.nq || s.batch < 0 || s.batch >= s.batches())
    std::abort();
  for (bool complete : {false, true}) {
    const lab::ParseResult again = lab::parse_fragment(lab::to_fragment(s, complete), lab::State{});
    if (again.state != s || !again.notes.empty()) std::abort();
  }
  return 0;
}
