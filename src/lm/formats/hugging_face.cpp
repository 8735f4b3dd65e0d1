// Hugging Face's GPT-2 and GPT-Neo (what save_pretrained writes, and nanoGPT's export):
// model.safetensors, config.json and the tokenizer files.
//   GPT-2 (modeling_gpt2.py): wte, wpe, h.{i}.ln_1, attn.c_attn (Conv1D: in × out, [C, 3C] = Q | K | V),
//     attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj, ln_f; lm_head.weight absent when tied; names with or
//     without "transformer."; the attn.bias mask buffer ignored. Scores over √d_head.
//   GPT-Neo (modeling_gpt_neo.py): h.{i}.attn.attention.{q,k,v}_proj (nn.Linear: out × in, no bias),
//     out_proj, mlp.c_fc and c_proj as nn.Linear; scores not scaled; attention_types' local layers
//     see window_size keys.
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "format.h"
#include "safetensors.h"
#include "tokenizer_files.h"

namespace lm {

namespace {

using nlohmann::json;

const ModelFile* weights_file(const std::vector<ModelFile>& files) {
  for (const ModelFile& f : files)
    if (looks_like_safetensors(f.bytes)) return &f;
  return find_file(files, "model.safetensors", ".safetensors");  // read, to say what is wrong with it
}

// config.json's field, or `fallback` where it is absent or null; throws naming the field.
template <class T>
T field(const json& config, const char* name, T fallback) {
  const auto it = config.find(name);
  if (it == config.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(std::string("config.json: ") + name + " has the wrong type (" + it->dump() + ")");
  }
}
template <class T>
T required(const json& config, const char* name) {
  if (!config.contains(name) || config.at(name).is_null())
    throw std::runtime_error(std::string("config.json: ") + name + " is missing");
  return field<T>(config, name, T{});
}

Activation activation_of(const std::string& name) {
  if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::gelu_tanh;
  if (name == "gelu") return Activation::gelu_erf;
  throw std::runtime_error("config.json: activation_function \"" + name + "\" is not read (gelu_new, gelu_pytorch_tanh and gelu are)");
}

// The reader of one file's tensors, with or without the "transformer." prefix.
struct Tensors {
  const Safetensors& file;
  std::string prefix;
  Matrix get(const std::string& name, long long rows, long long cols) const { return file.matrix(prefix + name, rows, cols); }
  // nn.Linear's out × in, as in × out.
  Matrix linear(const std::string& name, long long in, long long out) const { return get(name, out, in).transpose(); }
  RowVector vec(const std::string& name, long long size) const { return file.vector(prefix + name, size); }
  Norm norm(const std::string& name, long long size) const { return {vec(name + ".weight", size), vec(name + ".bias", size)}; }
};

LanguageModel read(const std::vector<ModelFile>& files) {
  const ModelFile& model_file = *weights_file(files);
  const ModelFile* config_file = find_file(files, "config.json");
  if (!config_file) throw std::runtime_error("config.json: missing: a Hugging Face model's safetensors come with its config.json");
  json config;
  try {
    config = json::parse(std::string(config_file->bytes));
  } catch (const json::exception&) {
    throw std::runtime_error("config.json: not valid JSON");
  }
  const std::string type = field<std::string>(config, "model_type", "");
  const bool neo = type == "gpt_neo";
  if (type != "gpt2" && !neo)
    throw std::runtime_error("config.json: model_type \"" + type + "\" is not read (gpt2 and gpt_neo are: a decoder with learned positions)");

  LanguageModel m;
  m.family = type;
  m.name = field<std::string>(config, "_name_or_path", model_file.name);
  if (m.name.empty()) m.name = model_file.name;
  Architecture& a = m.config;
  a.layers = required<int>(config, neo ? "num_layers" : "n_layer");
  a.heads = required<int>(config, neo ? "num_heads" : "n_head");
  a.d_model = required<int>(config, neo ? "hidden_size" : "n_embd");
  a.context = neo ? required<int>(config, "max_position_embeddings") : field<int>(config, "n_positions", field<int>(config, "n_ctx", 1024));
  a.vocab = required<int>(config, "vocab_size");
  for (const auto& [name, v] : {std::pair<const char*, int>{"layers", a.layers}, {"heads", a.heads}, {"width", a.d_model},
                                {"context", a.context}, {"vocab_size", a.vocab}})
    if (v < 1) throw std::runtime_error(std::string("config.json: the ") + name + " must be at least 1, got " + std::to_string(v));
  if (a.d_model % a.heads)
    throw std::runtime_error("config.json: the width (" + std::to_string(a.d_model) + ") is not a multiple of the heads (" +
                             std::to_string(a.heads) + ")");
  a.d_k = a.d_model / a.heads;
  a.d_mlp = field<int>(config, neo ? "intermediate_size" : "n_inner", 4 * a.d_model);
  a.activation = activation_of(field<std::string>(config, "activation_function", "gelu_new"));
  a.norm_eps = float(field<double>(config, "layer_norm_epsilon", 1e-5));
  a.positions = Positions::residual;
  if (neo) {
    a.score_scale = 1;  // GPT-Neo divides by nothing
    // attention_types [[["global", "local"], 6]] expands to one kind per layer.
    std::vector<std::string> kinds;
    for (const json& group : field<json>(config, "attention_types", json::array({json::array({json::array({"global"}), a.layers})})))
      for (int r = 0; r < group.at(1).get<int>(); ++r)
        for (const json& k : group.at(0)) kinds.push_back(k.get<std::string>());
    if (int(kinds.size()) != a.layers)
      throw std::runtime_error("config.json: attention_types gives " + std::to_string(kinds.size()) + " layers, num_layers " +
                               std::to_string(a.layers));
    const int window = field<int>(config, "window_size", 256);
    for (const std::string& k : kinds) {
      if (k != "global" && k != "local") throw std::runtime_error("config.json: attention type \"" + k + "\" is not read");
      a.windows.push_back(k == "local" ? window : 0);
    }
  } else {
    if (field<bool>(config, "scale_attn_by_inverse_layer_idx", false))
      throw std::runtime_error("config.json: scale_attn_by_inverse_layer_idx is not read");
    a.score_scale = field<bool>(config, "scale_attn_weights", true) ? float(1 / std::sqrt(double(a.d_k))) : 1.0f;
  }

  const Safetensors file(model_file.name, model_file.bytes);
  const std::string prefix = file.has("transformer.wte.weight") ? "transformer." : "";
  const Tensors t{file, prefix};
  const long long d = a.d_model, f = a.d_mlp;
  Weights& w = m.params;
  w.embed = t.get("wte.weight", a.vocab, d);
  w.pos = t.get("wpe.weight", a.context, d);
  for (int l = 0; l < a.layers; ++l) {
    const std::string at = "h." + std::to_string(l) + ".";
    Block b;
    b.ln1 = t.norm(at + "ln_1", d);
    b.ln2 = t.norm(at + "ln_2", d);
    if (neo) {
      b.wq = t.linear(at + "attn.attention.q_proj.weight", d, d);
      b.wk = t.linear(at + "attn.attention.k_proj.weight", d, d);
      b.wv = t.linear(at + "attn.attention.v_proj.weight", d, d);
      b.wo = t.linear(at + "attn.attention.out_proj.weight", d, d);
      b.bo = t.vec(at + "attn.attention.out_proj.bias", d);
      b.mlp_in = t.linear(at + "mlp.c_fc.weight", d, f);
      b.mlp_out = t.linear(at + "mlp.c_proj.weight", f, d);
    } else {
      const Matrix qkv = t.get(at + "attn.c_attn.weight", d, 3 * d);
      const RowVector qkv_bias = t.vec(at + "attn.c_attn.bias", 3 * d);
      b.wq = qkv.leftCols(d), b.wk = qkv.middleCols(d, d), b.wv = qkv.rightCols(d);
      b.bq = qkv_bias.head(d), b.bk = qkv_bias.segment(d, d), b.bv = qkv_bias.tail(d);
      b.wo = t.get(at + "attn.c_proj.weight", d, d);
      b.bo = t.vec(at + "attn.c_proj.bias", d);
      b.mlp_in = t.get(at + "mlp.c_fc.weight", d, f);
      b.mlp_out = t.get(at + "mlp.c_proj.weight", f, d);
    }
    b.mlp_in_bias = t.vec(at + "mlp.c_fc.bias", f);
    b.mlp_out_bias = t.vec(at + "mlp.c_proj.bias", d);
    w.layers.push_back(std::move(b));
  }
  w.final_norm = t.norm("ln_f", d);
  // lm_head sits outside "transformer."; absent, the embedding is tied to it.
  w.tied = !file.has("lm_head.weight");
  w.unembed = w.tied ? Matrix(w.embed.transpose()) : Matrix(file.matrix("lm_head.weight", a.vocab, d).transpose());
  try {
    check(a, w);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(model_file.name + ": " + e.what());
  }
  m.vocab = hugging_face_tokenizer(files);
  check_fits(m.vocab, a.vocab, find_file(files, "tokenizer.json") ? "tokenizer.json" : "vocab.json");
  return m;
}

}  // namespace

const Format& safetensors_format() {
  static const Format f{"safetensors", [](const std::vector<ModelFile>& files) { return weights_file(files) != nullptr; }, read};
  return f;
}

}  // namespace lm
