// The kernel-only WebAssembly module build/web/attention.js (docs/contract.md): no UI, no
// GL. compute() and train() (docs/training.md) never throw out of WebAssembly: errors come
// back as the error object.
// forwardArrays() backs the typed-array API `forward` of kernel_module_post.js: it returns
// the output as a Float32Array, or the one-sentence error as a string.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "contract.h"
#include "train_json.h"

namespace {

using emscripten::val;
using attn::io::RequestError;

std::string compute(const std::string& request) { return attn::io::compute_json(request); }
std::string train_request(const std::string& request) { return train::train_json(request); }

// NaN and ±∞ are the floats whose exponent bits are all ones. Tested on the bits with an OR
// over the whole array, the check vectorises (std::isfinite in a loop with an early exit does
// not), which matters at megabytes per call.
bool all_finite(const std::vector<float>& x) {
  std::uint32_t bad = 0;
  for (float e : x) {
    std::uint32_t bits;
    std::memcpy(&bits, &e, sizeof bits);
    bad |= std::uint32_t((bits & 0x7f800000u) == 0x7f800000u);
  }
  return bad == 0;
}

// Copies a JS Float32Array of `dims` (batch, heads, n, d) into the module, checking its length
// against them and every value the way compute() checks a request's numbers.
std::vector<float> read_tensor(const val& array, const char* name, int batch, int heads, int n, int d) {
  const std::uint64_t want = attn::elements({batch, heads, n, d});
  attn::io::check_tensor_elements(name, want);
  const std::size_t got = array["length"].as<std::size_t>();
  if (got != want)
    throw RequestError(std::string(name) + ": expected " + std::to_string(want) + " values for (" +
                       std::to_string(batch) + "," + std::to_string(heads) + "," + std::to_string(n) + "," +
                       std::to_string(d) + "), got " + std::to_string(got));
  std::vector<float> x = emscripten::convertJSArrayToNumberVector<float>(array);
  if (all_finite(x)) return x;
  for (std::size_t at = 0; at < x.size(); ++at)
    if (!std::isfinite(x[at])) {
      const std::size_t idx[4] = {at / (std::size_t(heads) * n * d), at / (std::size_t(n) * d) % heads,
                                  at / d % n, at % d};
      std::string path = name;
      for (std::size_t i : idx) path += "[" + std::to_string(i) + "]";
      throw RequestError(path + ": not a finite number");
    }
  return x;
}

val forward_arrays(const val& q, const val& k, const val& v, int batch, int heads, int kv_heads, int nq,
                   int nk, int dk, int dv, double scale, int causal, int kernel) {
  try {
    const attn::Shape s{batch, heads, kv_heads, nq, nk, dk, dv};
    attn::io::check_heads_divide(s);
    const auto kernel_choice = attn::Kernel(kernel);
    attn::io::check_score_limit(s, kernel_choice == attn::Kernel::reference);
    const std::vector<float> qv = read_tensor(q, "q", batch, heads, nq, dk);
    const std::vector<float> kv = read_tensor(k, "k", batch, kv_heads, nk, dk);
    const std::vector<float> vv = read_tensor(v, "v", batch, kv_heads, nk, dv);
    attn::Options options;
    options.scale = attn::io::check_scale(scale);
    options.causal = attn::Causal(causal);
    attn::io::check_ranges({s, qv.data(), kv.data(), vv.data()}, options);
    std::vector<float> out(s.out_size());
    attn::forward({s, qv.data(), kv.data(), vv.data()}, options, out.data(), kernel_choice);
    // A copy the caller owns; every buffer of this call is freed on return.
    return val::global("Float32Array").new_(emscripten::typed_memory_view(out.size(), out.data()));
  } catch (const RequestError& e) {
    return val(std::string(e.what()));
  } catch (const std::bad_alloc&) {
    return val(std::string("request: too large for the memory of this build"));
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_module) {
  emscripten::function("compute", &compute);
  emscripten::function("train", &train_request);
  emscripten::function("forwardArrays", &forward_arrays);
}
