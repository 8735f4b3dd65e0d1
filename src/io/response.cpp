// Computing a parsed request and writing the response (docs/contract.md).
#include <cmath>
#include <new>
#include <nlohmann/json.hpp>

#include "contract.h"
#include "reference.h"

namespace attn::io {

namespace {

// Responses carry float32 results: a float number type prints each as the shortest decimal
// that reads back as the same float (0.8044297, not 0.8044297099113464).
using json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                  std::uint64_t, float>;

// Writes the next elements of `p` as nested arrays of sizes dims[0..rank); −∞ (a blocked
// score) becomes the string "-inf", as the contract spells it.
json nest(const float*& p, const int* dims, int rank) {
  json a = json::array();
  for (int i = 0; i < dims[0]; ++i) {
    if (rank > 1) {
      a.push_back(nest(p, dims + 1, rank - 1));
    } else {
      const float x = *p++;
      a.push_back(x == kNegInf ? json("-inf") : json(x));
    }
  }
  return a;
}

}  // namespace

std::string respond(const Request& r) {
  const Shape& s = r.shape;
  const Inputs in = r.inputs();
  json res = json::object();
  const auto put = [&](const char* name, const std::vector<float>& data, int heads, int rows, int cols) {
    // (batch, heads, rows, cols), less the leading axes that the request's rank lacks.
    // check_ranges keeps scores and outputs finite; gradients multiply grad_output with v, q
    // and k, unbounded by it, so an overflow there is refused here rather than sent as null.
    const bool scores = std::string(name) == "scores";
    for (float x : data)
      if (!std::isfinite(x) && !(scores && x == kNegInf))
        throw RequestError(std::string(name) + ": overflows float32 for these inputs");
    const int dims[4] = {s.batch, heads, rows, cols};
    const float* p = data.data();
    res[name] = nest(p, dims + 4 - r.rank, r.rank);
  };

  const bool wants_grads = r.wants("grad_q") || r.wants("grad_k") || r.wants("grad_v");
  const bool wants_trace = wants_grads || r.wants("weights") || r.wants("scores");
  if (r.wants("output")) {
    std::vector<float> out(s.out_size());
    forward(in, r.options, out.data(), r.kernel);
    put("output", out, s.heads, s.nq, s.dv);
  }
  if (wants_trace) {
    const Trace trace = reference_forward(in, r.options);
    if (r.wants("weights")) put("weights", trace.gather(&HeadTrace::weights), s.heads, s.nq, s.nk);
    if (r.wants("scores")) put("scores", trace.gather(&HeadTrace::masked), s.heads, s.nq, s.nk);
    if (wants_grads) {
      const Gradients g = reference_backward(in, r.options, trace, r.grad_output.data());
      if (r.wants("grad_q")) put("grad_q", g.dq, s.heads, s.nq, s.dk);
      if (r.wants("grad_k")) put("grad_k", g.dk, s.kv_heads, s.nk, s.dk);
      if (r.wants("grad_v")) put("grad_v", g.dv, s.kv_heads, s.nk, s.dv);
    }
  }
  return res.dump();
}

std::string compute_json(std::string_view json_text, bool* ok) {
  std::string message;
  try {
    std::string out = respond(parse_request(json_text));
    if (ok) *ok = true;
    return out;
  } catch (const RequestError& e) {
    message = e.what();
  } catch (const std::bad_alloc&) {
    message = "request: too large for the memory of this build";
  } catch (const std::exception& e) {
    message = std::string("request: could not be computed (") + e.what() + ")";
  }
  if (ok) *ok = false;
  return json{{"error", message}}.dump();
}

}  // namespace attn::io
