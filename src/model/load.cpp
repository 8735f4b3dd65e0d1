#include "load.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "contract.h"
#include "i18n.h"
#include "number_text.h"

namespace lab {
namespace {

using nlohmann::json;
using attn::io::RequestError;

[[noreturn]] void fail(const std::string& message) { throw RequestError(message); }

// A tensor's axes as the request gave them: its rank's last axes of (batch, heads, n, d).
std::vector<int> request_dims(int rank, std::array<int, 4> all) {
  return {all.end() - rank, all.end()};
}

// "[b][h][i][c]" of flat entry `at` in a tensor of shape `dims`, as the contract names entries.
std::string index_text(std::size_t at, const std::vector<int>& dims) {
  std::string text;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    text = "[" + std::to_string(at % std::size_t(*d)) + "]" + text;
    at /= std::size_t(*d);
  }
  return text;
}

void check_size(const std::string& field, const std::string& what, int value, int limit) {
  if (value > limit)
    fail(field + ": " + what + " is " + std::to_string(value) + ", more than the walkthrough's " +
         std::to_string(limit));
}

// The contract accepts any finite float; the walkthrough shows entries within ±max_value.
void check_entries(const std::string& field, const std::vector<float>& values, const std::vector<int>& dims) {
  const auto beyond = std::find_if(values.begin(), values.end(),
                                   [](float x) { return std::fabs(x) > Limits::max_value; });
  if (beyond != values.end())
    fail(field + index_text(std::size_t(beyond - values.begin()), dims) + ": " + text::significant(*beyond, 6) +
         " is outside ±" + text::significant(Limits::max_value, 6) + ", the largest entry the walkthrough shows");
}

std::vector<std::string> read_tokens(const json& list, const std::string& field, int count, const char* axis) {
  if (!list.is_array()) fail(field + ": expected an array of strings");
  if (list.size() != std::size_t(count))
    fail(field + ": " + std::to_string(list.size()) + " tokens, but the data has " + std::to_string(count) + " " +
         axis);
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "]";
    if (!list[i].is_string()) fail(at + ": expected a string");
    // An axis label, not a paragraph: the heatmaps have room for a word or two.
    if (list[i].get_ref<const std::string&>().size() > 40) fail(at + ": longer than 40 bytes");
    tokens.push_back(list[i].get<std::string>());
  }
  return tokens;
}

json parse_options(std::string_view text) {
  if (text.empty()) return json::object();
  // Tokens are arrays of strings: nothing deeper than three levels is meaningful.
  const json::parser_callback_t shallow = [](int depth, json::parse_event_t, json&) {
    if (depth > 3) fail("tokens: nested deeper than an object of arrays of strings");
    return true;
  };
  json j = json::parse(text.begin(), text.end(), shallow, false);
  if (j.is_discarded() || !j.is_object()) fail("options: expected a JSON object");
  for (const auto& item : j.items())
    if (item.key() != "tokens" && item.key() != "head" && item.key() != "layer" && item.key() != "name" &&
        item.key() != "link")
      fail("options: unknown field \"" + item.key() + "\" (expected tokens, head, layer, name or link)");
  return j;
}

bool same_shape(const attn::Shape& a, const attn::Shape& b) {
  return a.batch == b.batch && a.heads == b.heads && a.kv_heads == b.kv_heads && a.nq == b.nq && a.nk == b.nk &&
         a.dk == b.dk && a.dv == b.dv;
}

// The request, or several layers' as {"layers": [request, ...]}: requests of one shape, scale
// and causal choice (each may have its own mask), whose heads are kept layer by layer.
std::vector<attn::io::Request> parse_layers(std::string_view text) {
  // Whether the top level has "layers", read without building what is below it.
  bool layered = false;
  const json::parser_callback_t top = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key && parsed == "layers") layered = true;
    return depth == 0;
  };
  const bool valid = !json::parse(text.begin(), text.end(), top, false).is_discarded();
  if (!valid || !layered) return {attn::io::parse_request(text)};  // which names any JSON error
  const json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object() || j.size() != 1 || !j["layers"].is_array() || j["layers"].empty())
    fail("layers: expected {\"layers\": [request, ...]}, one request per layer and nothing beside");
  std::vector<attn::io::Request> layers;
  for (std::size_t i = 0; i < j["layers"].size(); ++i) {
    const std::string at = "layers[" + std::to_string(i) + "]";
    try {
      layers.push_back(attn::io::parse_request(j["layers"][i].dump()));
    } catch (const RequestError& e) {
      fail(at + "." + e.what());
    }
    const attn::io::Request& first = layers.front();
    if (!same_shape(layers.back().shape, first.shape) || layers.back().rank != first.rank)
      fail(at + ": its shape differs from layers[0]'s, and the layers' heads are shown side by side");
    if (layers.back().options.scale != first.options.scale || layers.back().options.causal != first.options.causal)
      fail(at + ": its scale or causal choice differs from layers[0]'s, and the walkthrough shows one");
  }
  return layers;
}

// The walkthrough's mask for the shown head and sequences: key padding per sequence (`pad`)
// and one set of removed cells for all (`blocked`). A mask that is more than that, or that
// adds anything but 0 and −∞, cannot be shown.
void map_mask(const attn::Mask& m, int head, int batches, State& s) {
  const int nq = s.nq, nk = s.nk;
  std::vector<char> allowed(std::size_t(batches) * nq * nk);
  for (int b = 0; b < batches; ++b)
    for (int i = 0; i < nq; ++i)
      for (int j = 0; j < nk; ++j) {
        const float x = m.at(b, head, i, j);
        if (m.kind == attn::Mask::Kind::additive && x != 0.0f && x != attn::kNegInf)
          fail("mask: the additive value " + text::significant(x, 6) +
               " is neither 0 nor -inf, and the walkthrough shows a mask only as removed cells");
        allowed[(std::size_t(b) * nq + i) * nk + j] = m.kind == attn::Mask::Kind::additive ? x == 0.0f : x != 0.0f;
      }
  auto at = [&](int b, int i, int j) { return allowed[(std::size_t(b) * nq + i) * nk + j] != 0; };
  // Each sequence's real length: the keys before the trailing ones no query may attend.
  std::vector<int> pad(std::size_t(batches), nk);
  for (int b = 0; b < batches; ++b)
    for (bool real = false; pad[b] > 0 && !real;) {
      for (int i = 0; i < nq && !real; ++i) real = at(b, i, pad[b] - 1);
      if (!real) --pad[b];
    }
  s.blocked.clear();
  for (int i = 0; i < nq; ++i)
    for (int j = 0; j < nk; ++j) {
      int seen = -1;  // the first sequence in which key j is real
      for (int b = 0; b < batches; ++b) {
        if (j >= pad[b]) continue;
        if (seen < 0) {
          seen = b;
          if (!at(b, i, j)) s.blocked.emplace_back(i, j);
        } else if (at(b, i, j) != at(seen, i, j)) {
          fail("mask: sequences " + std::to_string(seen) + " and " + std::to_string(b) + " differ at query " +
               std::to_string(i) + ", key " + std::to_string(j) +
               ", and the walkthrough shows one mask for all sequences besides key padding");
        }
      }
    }
  if (batches > 1 || pad[0] < nk) s.pad = pad;
}

Loaded load(std::string_view request_json, std::string_view options_json, const State& current) {
  const json options = parse_options(options_json);
  const std::vector<attn::io::Request> layers = parse_layers(request_json);
  const attn::io::Request& r = layers.front();
  const attn::Shape& shape = r.shape;
  check_size("q", "n_q", shape.nq, Limits::max_n);
  check_size("k", "n_k", shape.nk, Limits::max_n);
  check_size("q", "d_k", shape.dk, Limits::max_d);
  check_size("v", "d_v", shape.dv, Limits::max_d);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string at = layers.size() > 1 ? "layers[" + std::to_string(l) + "]." : "";
    check_entries(at + "q", layers[l].q, request_dims(r.rank, {shape.batch, shape.heads, shape.nq, shape.dk}));
    check_entries(at + "k", layers[l].k, request_dims(r.rank, {shape.batch, shape.kv_heads, shape.nk, shape.dk}));
    check_entries(at + "v", layers[l].v, request_dims(r.rank, {shape.batch, shape.kv_heads, shape.nk, shape.dv}));
  }

  Loaded out;
  State& s = out.state;
  s = current;
  s.preset.clear();  // a preset's tokens and base do not belong to this data
  if (s.view != View::compare) s.view = View::walkthrough;
  if (s.step == Step::input) s.step = Step::scores;  // cross-attention has no input X
  s.kind = Attention::cross;
  s.nq = shape.nq;
  s.nk = shape.nk;
  s.dk = shape.dk;
  s.dv = shape.dv;
  s.query = s.batch = 0;

  int head = 0;
  if (options.contains("head")) {
    const json& h = options["head"];
    if (!h.is_number_integer() || h.get<long long>() < 0 || h.get<long long>() >= shape.heads)
      fail("head: expected a head from 0 to " + std::to_string(shape.heads - 1) + ", the heads of q");
    head = h.get<int>();
  }
  int layer = 0;
  if (options.contains("layer")) {
    const json& l = options["layer"];
    if (!l.is_number_integer() || l.get<long long>() < 0 || l.get<long long>() >= (long long)layers.size())
      fail("layer: expected a layer from 0 to " + std::to_string(layers.size() - 1) + ", the layers given");
    layer = l.get<int>();
  }
  if (layers.size() > 1)
    out.notes.push_back(i18n::format(tr("Showing layer %d of %d"), layer, int(layers.size())));
  if (shape.heads > 1 || layers.size() > 1)
    out.notes.push_back(i18n::format(
        tr("Showing head %d of %d: click another in \"All heads\""),
        head, shape.heads));

  // The walkthrough keeps every intermediate of every sequence: as many as its limits allow.
  const int most = max_batches(shape.nq, shape.nk);
  const int batches = std::min(shape.batch, most);
  if (batches < shape.batch)
    out.notes.push_back(i18n::format(tr("Showing the first %d of %d sequences: the walkthrough holds at most %d at this size"),
                                     batches, shape.batch, most));
  auto slice = [&](const std::vector<float>& t, int heads, int h, int rows, int cols) {
    std::vector<float> part;
    part.reserve(std::size_t(batches) * rows * cols);
    for (int b = 0; b < batches; ++b) {
      const float* p = t.data() + (std::size_t(b) * heads + h) * rows * cols;
      part.insert(part.end(), p, p + std::size_t(rows) * cols);
    }
    return part;
  };
  // Every head of every layer as the walkthrough shows one (state.h's LoadedHead), layer by
  // layer; the state shows `layer`'s `head`.
  std::vector<LoadedHead> heads;
  for (int l = 0; l < int(layers.size()); ++l)
    for (int h = 0; h < shape.heads; ++h) {
      const attn::io::Request& lr = layers[std::size_t(l)];
      const int kv_head = shape.kv_head_of(h);
      s.pad.assign(batches > 1 ? std::size_t(batches) : 0, shape.nk);
      s.blocked.clear();
      try {
        if (!lr.options.mask.empty()) map_mask(lr.options.mask, h, batches, s);
      } catch (const RequestError& e) {
        if (shape.heads == 1 && layers.size() == 1) throw;
        fail(std::string(e.what()) + " (layer " + std::to_string(l) + ", head " + std::to_string(h) + ")");
      }
      heads.push_back({slice(lr.q, shape.heads, h, shape.nq, shape.dk),
                       slice(lr.k, shape.kv_heads, kv_head, shape.nk, shape.dk),
                       slice(lr.v, shape.kv_heads, kv_head, shape.nk, shape.dv), std::move(s.pad), std::move(s.blocked), l,
                       h});
    }
  s.loaded_heads = std::make_shared<const std::vector<LoadedHead>>(std::move(heads));
  show_head(s, layer * shape.heads + head);
  if (s.loaded_heads->size() == 1) s.loaded_heads.reset();  // the state holds the one head

  s.causal = r.options.causal;
  const float scale = r.options.scale;
  s.custom_scale = 1.0f;
  if (scale == attn::scale_for(attn::ScaleMode::inv_sqrt_dk, shape.dk)) s.scale = attn::ScaleMode::inv_sqrt_dk;
  else if (scale == 1.0f) s.scale = attn::ScaleMode::none;
  else if (scale == attn::scale_for(attn::ScaleMode::inv_dk, shape.dk)) s.scale = attn::ScaleMode::inv_dk;
  else {
    if (std::fabs(scale) > Limits::max_custom_scale)
      fail("scale: " + text::significant(scale, 6) + " is outside ±" + text::significant(Limits::max_custom_scale, 6) +
           ", the walkthrough's limit");
    s.scale = attn::ScaleMode::custom;
    s.custom_scale = scale;
  }

  if (options.contains("tokens")) {
    const json& t = options["tokens"];
    if (t.is_array()) {
      if (shape.nq != shape.nk)
        fail("tokens: one list for both axes, but n_q is " + std::to_string(shape.nq) + " and n_k is " +
             std::to_string(shape.nk) + " (give {\"queries\": [...], \"keys\": [...]})");
      s.query_tokens = s.key_tokens = read_tokens(t, "tokens", shape.nq, "queries and keys");
    } else if (t.is_object()) {
      for (const auto& item : t.items())
        if (item.key() != "queries" && item.key() != "keys")
          fail("tokens: unknown field \"" + item.key() + "\" (expected queries or keys)");
      if (t.contains("queries")) s.query_tokens = read_tokens(t["queries"], "tokens.queries", shape.nq, "queries");
      if (t.contains("keys")) s.key_tokens = read_tokens(t["keys"], "tokens.keys", shape.nk, "keys");
    } else {
      fail("tokens: expected an array of strings or {\"queries\": [...], \"keys\": [...]}");
    }
  }
  const json* name = options.contains("name") ? &options["name"] : nullptr;
  s.source = name && name->is_string() && !name->get_ref<const std::string&>().empty() ? name->get<std::string>()
                                                                                        : tr("the loaded request");
  // A page that carries its data (a notebook's output: boot.js) loads it again when reloaded;
  // it has no link to speak of.
  const json* link = options.contains("link") ? &options["link"] : nullptr;
  if (link && !link->is_boolean()) fail("link: expected true or false");
  if (!link || link->get<bool>())
    out.notes.push_back(
        i18n::format(tr("The link keeps the sizes and settings but not the values of %s (load it again to show them)"),
                     s.source.c_str()));
  return out;
}

}  // namespace

Loaded load_request(std::string_view request_json, std::string_view options_json, const State& current) {
  try {
    return load(request_json, options_json, current);
  } catch (const RequestError& e) {
    return {e.what(), current, {}};
  } catch (const std::bad_alloc&) {
    return {"request: too large for this page's memory", current, {}};
  }
}

}  // namespace lab
