// libFuzzer target: any bytes as a request, through parsing, validation, both kernels and
// the response writer. A crash, a sanitizer report, a leak or a response that is neither a
// result nor an error object is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bool ok = false;
  const std::string response = attn::io::compute_json(text, &ok);
  const nlohmann::json parsed = nlohmann::json::parse(response);  // must be valid JSON
  if (ok == parsed.contains("error")) std::abort();
  if (!ok && !parsed["error"].is_string()) std::abort();
  return 0;
}
