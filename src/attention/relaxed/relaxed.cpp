#include "relaxed.h"

#if defined(__EMSCRIPTEN__)
#include <string>

#include <emscripten.h>

// Module.relaxedKernel is set by loader.js (a --pre-js of every module that links the kernel).
EM_JS(int, attn_relaxed_loaded, (), { return Module['relaxedKernel'] ? 1 : 0; });
EM_JS(void, attn_relaxed_instruction_set, (char* text, int size), {
  stringToUTF8(Module['relaxedKernel'].instructionSet, text, size);
});
EM_JS(float, attn_relaxed_madd_chains, (int steps), { return Module['relaxedKernel'].maddChains(steps); });
EM_JS(int, attn_relaxed_forward,
      (const int* args, float scale, const float* q, const float* k, const float* v, const float* mask, float* out), {
        return Module['relaxedKernel'].forward(HEAP32, HEAPF32, args, scale, q, k, v, mask, out) ? 1 : 0;
      });
#endif

namespace attn::relaxed {

#if defined(__EMSCRIPTEN__)
bool available() { return attn_relaxed_loaded() != 0; }

const char* instruction_set() {
  static const std::string name = [] {
    char text[32] = "";
    attn_relaxed_instruction_set(text, sizeof text);
    return std::string(text);
  }();
  return name.c_str();
}

bool tiled_forward(const Inputs& in, const Options& opt, float* out) {
  const Shape& s = in.shape;
  const Mask& m = opt.mask;
  // The order loader.js reads them in.
  const int args[] = {s.batch, s.heads, s.kv_heads, s.nq, s.nk, s.dk, s.dv, int(opt.causal), int(m.kind),
                      m.dims[0], m.dims[1], m.dims[2], m.dims[3], int(m.values.size())};
  return attn_relaxed_forward(args, opt.scale, in.q, in.k, in.v, m.values.data(), out) != 0;
}

float madd_chains(int steps) { return attn_relaxed_madd_chains(steps); }
#else
bool available() { return false; }
const char* instruction_set() { return nullptr; }
bool tiled_forward(const Inputs&, const Options&, float*) { return false; }
float madd_chains(int) { return 0.0f; }
#endif

}  // namespace attn::relaxed
