// libFuzzer target: any bytes as a postMessage from a host page, through the message decoder
// and the state parser. Never a crash; a refused message carries a note; an accepted one
// leaves a state within the limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "message.h"
#include "state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lab::DecodedState d = lab::decode_set_message(text);
  if (!d.accepted) {
    if (d.notes.empty() || !d.fragment.empty()) std::abort();
    return 0;
  }
  const lab::State s = lab::parse_fragment(d.fragment, lab::State{}).state;
  if (s.nq < 1 || s.nq > lab::Limits::max_n || s.query < 0 || s.query >= s.nq) std::abort();
  return 0;
}
