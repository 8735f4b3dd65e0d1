// The one request/response format of docs/contract.md, shared by attention-cli, the
// WebAssembly module and the tests. Parsing is strict: any problem is a RequestError whose
// message names the field (and position) and says what is wrong, in one sentence.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "attention.h"

namespace attn::io {

struct RequestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Sizes this build accepts; a request beyond them gets an error that names the limit.
struct Limits {
  static constexpr std::size_t max_request_bytes = 256u << 20;  // JSON text
  static constexpr std::size_t max_tensor_elements = 1u << 24;  // per q, k, v, mask, grad
  static constexpr std::size_t max_score_elements = 1u << 24;   // batch·heads·nq·nk when the
                                                                // reference must hold them all
  static constexpr int max_depth = 6;                           // JSON nesting
};

struct Request {
  int rank = 4;  // of q, k, v and every tensor in the response
  Shape shape;
  std::vector<float> q, k, v, grad_output;
  Options options;
  Kernel kernel = Kernel::automatic;
  std::set<std::string> outputs{"output"};

  Inputs inputs() const { return {shape, q.data(), k.data(), v.data()}; }
  bool wants(const std::string& name) const { return outputs.count(name) != 0; }
};

Request parse_request(std::string_view json_text);

// The contract's names of the kernel's choices (docs/contract.md), the one place they are
// spelled: causal "none", "top_left", "bottom_right" (a request's causal also reads false and
// true); scale "inv_sqrt_dk", "none", "inv_dk" (the training request's, docs/training.md, and
// the scaling experiment's series; a custom scale is its number, so nullptr).
const char* causal_name(Causal causal);
bool parse_causal_name(std::string_view name, Causal& out);
const char* scale_name(ScaleMode mode);
bool parse_scale_name(std::string_view name, ScaleMode& out);

// The request's fields and the names "outputs" takes: parse_request refuses any other
// (docs/contract.md documents each; tests/unit/docs_test.cpp holds them together).
const std::set<std::string>& request_fields();
const std::set<std::string>& output_names();

// Checks every front end shares (the JSON request, the typed-array API), so a problem reads
// the same wherever it comes from. Each throws a RequestError.
void check_tensor_elements(const std::string& field, std::uint64_t elements);
void check_heads_divide(const Shape& s);
// The reference holds every score; refuse what would not fit rather than run out of memory.
void check_score_limit(const Shape& s, bool needs_reference);
// A scale that is finite as a float, returned as one.
float check_scale(double scale);
// Scores, masked scores and outputs must stay finite in float32 (docs/contract.md, "Limits"):
// the kernels would answer NaN, or silently 0, past that.
void check_ranges(const Inputs& in, const Options& o);

// Computes a parsed request and writes the response JSON.
std::string respond(const Request& request);

// The whole pipeline, as the CLI and the JS API use it: a response or an error object,
// never an exception.
std::string compute_json(std::string_view json_text, bool* ok = nullptr);

}  // namespace attn::io
