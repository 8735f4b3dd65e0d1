// The kernel-only WebAssembly module build/web/attention.js (docs/contract.md): no UI, no
// GL. compute() never throws out of WebAssembly: errors come back as the error object.
#include <emscripten/bind.h>

#include <string>

#include "contract.h"

namespace {

std::string compute(const std::string& request) { return attn::io::compute_json(request); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_module) { emscripten::function("compute", &compute); }
