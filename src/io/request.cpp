// Parsing and validating a request (docs/contract.md) with nlohmann/json.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "contract.h"

namespace attn::io {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& message) { throw RequestError(message); }

std::string shape_text(const std::vector<int>& dims) {
  std::string t = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) t += (i ? "," : "") + std::to_string(dims[i]);
  return t + ")";
}

enum class Leaf { number, mask_entry };

struct Tensor {
  std::vector<int> dims;
  std::vector<float> data;
  bool boolean = false;  // a mask made of true/false
};

class TensorReader {
 public:
  TensorReader(std::string field, Leaf leaf) : field_(std::move(field)), leaf_(leaf) {}

  Tensor read(const json& j) {
    if (!j.is_array()) fail(field_ + ": expected nested arrays of numbers");
    // The shape is read along the first entries, then every entry is checked against it.
    for (const json* p = &j; p->is_array(); p = &(*p)[0]) {
      if (p->empty()) fail(field_ + ": empty dimension");
      t_.dims.push_back(int(p->size()));
      if (t_.dims.size() > 4) fail(field_ + ": expected rank 2 to 4, got more than 4");
    }
    if (t_.dims.size() < 2) fail(field_ + ": expected rank 2 to 4, got rank 1");
    std::uint64_t total = 1;
    for (int d : t_.dims) check_tensor_elements(field_, total = elements({std::int64_t(total), d}));
    t_.data.reserve(std::size_t(total));
    if (leaf_ == Leaf::mask_entry) t_.boolean = first_leaf(j).is_boolean();
    walk(j, 0, field_);
    return std::move(t_);
  }

 private:
  static const json& first_leaf(const json& j) { return j.is_array() ? first_leaf(j[0]) : j; }

  void walk(const json& j, std::size_t depth, const std::string& path) {
    if (depth == t_.dims.size()) return leaf(j, path);
    if (!j.is_array())
      fail(path + ": expected an array of " + std::to_string(t_.dims[depth]) + " entries, got " +
           j.type_name());
    if (j.size() != std::size_t(t_.dims[depth]))
      fail(path + ": ragged array, expected " + std::to_string(t_.dims[depth]) +
           " entries like " + field_ + (depth ? "[0]…" : "") + ", got " + std::to_string(j.size()));
    for (std::size_t i = 0; i < j.size(); ++i)
      walk(j[i], depth + 1, path + "[" + std::to_string(i) + "]");
  }

  void leaf(const json& j, const std::string& path) {
    if (leaf_ == Leaf::mask_entry && t_.boolean) {
      if (!j.is_boolean()) fail(path + ": expected true or false like the mask's first entry");
      t_.data.push_back(j.get<bool>() ? 1.0f : 0.0f);
      return;
    }
    if (leaf_ == Leaf::mask_entry && j.is_string() && j.get_ref<const std::string&>() == "-inf") {
      t_.data.push_back(kNegInf);
      return;
    }
    if (j.is_array()) fail(path + ": expected a number, got an array (too deep)");
    if (!j.is_number()) fail(path + ": expected a number, got " + std::string(j.type_name()));
    const double x = j.get<double>();
    if (!std::isfinite(x) || std::fabs(x) > std::numeric_limits<float>::max())
      fail(path + ": not a finite number");
    t_.data.push_back(float(x));
  }

  std::string field_;
  Leaf leaf_;
  Tensor t_;
};

// Rank 2 to 4, always read as (batch, heads, n, d).
std::array<int, 4> as4(const std::vector<int>& dims) {
  std::array<int, 4> d{1, 1, 1, 1};
  std::copy(dims.begin(), dims.end(), d.begin() + (4 - dims.size()));
  return d;
}

json parse_json(std::string_view text) {
  if (text.size() > Limits::max_request_bytes)
    fail("request: larger than " + std::to_string(Limits::max_request_bytes >> 20) +
         " MiB, the limit of this build");
  std::vector<std::set<std::string>> keys;  // of each object being read
  std::string field = "request";             // the request's field being read
  std::size_t arrays = 0, leaves = 0;        // in that field, which comes once
  // Checks made while parsing, before the document can cost memory or stack: nesting depth,
  // a field given twice (a document would keep the last one silently), and each field's
  // count of entries and arrays, so the document stays proportional to the tensor limit
  // whatever the request's size.
  const json::parser_callback_t guard = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth > Limits::max_depth)
      fail("request: nested deeper than " + std::to_string(Limits::max_depth) +
           " levels, the limit of this build");
    switch (event) {
      case json::parse_event_t::object_start: keys.emplace_back(); break;
      case json::parse_event_t::object_end: keys.pop_back(); break;
      case json::parse_event_t::key:
        if (!keys.back().insert(parsed.get<std::string>()).second)
          fail("request: field \"" + parsed.get<std::string>() + "\" given twice");
        if (depth == 1) {
          field = parsed.get<std::string>();
          arrays = leaves = 0;
        }
        break;
      case json::parse_event_t::array_end: check_tensor_elements(field, ++arrays); break;
      case json::parse_event_t::value: check_tensor_elements(field, ++leaves); break;
      default: break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), guard);
  } catch (const json::parse_error& e) {
    fail("request: invalid JSON at byte " + std::to_string(e.byte));
  }
}

Causal parse_causal(const json& j) {
  if (j.is_boolean()) return j.get<bool>() ? Causal::top_left : Causal::none;
  Causal named = Causal::none;
  // A string names an alignment; "none" is false's and not a string the contract reads.
  if (j.is_string() && parse_causal_name(j.get_ref<const std::string&>(), named) && named != Causal::none) return named;
  fail("causal: expected false, true, \"top_left\" or \"bottom_right\"");
}

Kernel parse_kernel(const json& j) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "auto") return Kernel::automatic;
    if (s == "reference") return Kernel::reference;
    if (s == "tiled") return Kernel::tiled;
  }
  fail("kernel: expected \"auto\", \"reference\" or \"tiled\"");
}

void check_against_q(const Tensor& t, const Tensor& q, const char* name) {
  if (t.dims.size() != q.dims.size())
    fail(std::string(name) + ": expected rank " + std::to_string(q.dims.size()) + " like q, got rank " +
         std::to_string(t.dims.size()));
}

}  // namespace

const std::set<std::string>& request_fields() {
  static const std::set<std::string> fields{"q", "k", "v", "scale", "causal", "mask", "outputs", "grad_output", "kernel"};
  return fields;
}

const std::set<std::string>& output_names() {
  static const std::set<std::string> names{"output", "weights", "scores", "grad_q", "grad_k", "grad_v"};
  return names;
}

void check_tensor_elements(const std::string& field, std::uint64_t elements) {
  if (elements > Limits::max_tensor_elements)
    fail(field + ": more than " + std::to_string(Limits::max_tensor_elements) +
         " elements, the limit of this build");
}

void check_heads_divide(const Shape& s) {
  if (s.heads % s.kv_heads != 0)
    fail("k: " + std::to_string(s.kv_heads) + " heads do not divide q's " + std::to_string(s.heads) +
         " heads");
}

void check_score_limit(const Shape& s, bool needs_reference) {
  if (needs_reference && s.weights_size() > Limits::max_score_elements)
    fail("request: " + std::to_string(s.weights_size()) + " scores exceed the limit of " +
         std::to_string(Limits::max_score_elements) +
         " for weights, scores, gradients or the reference kernel");
}

Request parse_request(std::string_view json_text) {
  const json j = parse_json(json_text);
  if (!j.is_object()) fail("request: expected a JSON object");
  for (const auto& item : j.items())
    if (!request_fields().count(item.key())) fail("request: unknown field \"" + item.key() + "\"");
  for (const char* f : {"q", "k", "v"})
    if (!j.contains(f)) fail(std::string(f) + ": missing");

  Tensor q = TensorReader("q", Leaf::number).read(j["q"]);
  Tensor k = TensorReader("k", Leaf::number).read(j["k"]);
  Tensor v = TensorReader("v", Leaf::number).read(j["v"]);
  check_against_q(k, q, "k");
  check_against_q(v, q, "v");
  const auto qd = as4(q.dims), kd = as4(k.dims), vd = as4(v.dims);

  Request r;
  r.rank = int(q.dims.size());
  Shape& s = r.shape;
  s.batch = qd[0];
  s.heads = qd[1];
  s.nq = qd[2];
  s.dk = qd[3];
  s.kv_heads = kd[1];
  s.nk = kd[2];
  s.dv = vd[3];
  if (kd[0] != s.batch) fail("k: batch is " + std::to_string(kd[0]) + " but q has " + std::to_string(s.batch));
  if (vd[0] != s.batch) fail("v: batch is " + std::to_string(vd[0]) + " but q has " + std::to_string(s.batch));
  if (kd[3] != s.dk)
    fail("k: d_k is " + std::to_string(kd[3]) + " but q has " + std::to_string(s.dk) + " columns");
  if (vd[1] != s.kv_heads)
    fail("v: " + std::to_string(vd[1]) + " heads but k has " + std::to_string(s.kv_heads));
  if (vd[2] != s.nk)
    fail("v: n_k is " + std::to_string(vd[2]) + " but k has " + std::to_string(s.nk) + " rows");
  check_heads_divide(s);
  r.q = std::move(q.data);
  r.k = std::move(k.data);
  r.v = std::move(v.data);

  Options& o = r.options;
  o.scale = scale_for(ScaleMode::inv_sqrt_dk, s.dk);
  if (j.contains("scale")) {
    const json& sc = j["scale"];
    if (!sc.is_number()) fail("scale: expected a finite number");
    o.scale = check_scale(sc.get<double>());
  }
  if (j.contains("causal")) o.causal = parse_causal(j["causal"]);
  if (j.contains("kernel")) r.kernel = parse_kernel(j["kernel"]);

  if (j.contains("mask")) {
    Tensor m = TensorReader("mask", Leaf::mask_entry).read(j["mask"]);
    const std::array<int, 4> target{s.batch, s.heads, s.nq, s.nk};
    const auto md = as4(m.dims);
    for (int a = 0; a < 4; ++a)
      if (md[a] != 1 && md[a] != target[a])
        fail("mask: cannot broadcast shape " + shape_text(m.dims) + " to " +
             shape_text({target.begin(), target.end()}));
    o.mask.kind = m.boolean ? Mask::Kind::boolean : Mask::Kind::additive;
    o.mask.dims = md;
    o.mask.values = std::move(m.data);
  }

  if (j.contains("outputs")) {
    const json& outs = j["outputs"];
    if (!outs.is_array() || outs.empty()) fail("outputs: expected a non-empty array of names");
    r.outputs.clear();
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const std::string at = "outputs[" + std::to_string(i) + "]";
      if (!outs[i].is_string()) fail(at + ": expected a name");
      const auto& name = outs[i].get_ref<const std::string&>();
      if (!output_names().count(name))
        fail(at + ": unknown output \"" + name +
             "\" (expected output, weights, scores, grad_q, grad_k or grad_v)");
      r.outputs.insert(name);
    }
  }

  const bool wants_grads = r.wants("grad_q") || r.wants("grad_k") || r.wants("grad_v");
  if (j.contains("grad_output")) {
    Tensor g = TensorReader("grad_output", Leaf::number).read(j["grad_output"]);
    std::vector<int> expect(q.dims);
    expect.back() = s.dv;
    if (g.dims != expect)
      fail("grad_output: expected shape " + shape_text(expect) + " like the output, got " +
           shape_text(g.dims));
    r.grad_output = std::move(g.data);
  } else if (wants_grads) {
    fail("grad_output: missing, and the requested gradients need it");
  }

  check_ranges(r.inputs(), o);
  check_score_limit(s, wants_grads || r.wants("weights") || r.wants("scores") ||
                           r.kernel == Kernel::reference);
  return r;
}

}  // namespace attn::io
