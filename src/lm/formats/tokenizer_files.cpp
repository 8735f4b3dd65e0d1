#include "tokenizer_files.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "bytes.h"

namespace lm {

namespace {

using nlohmann::json;

json parse_json(const ModelFile& f) {
  try {
    return json::parse(std::string(f.bytes));
  } catch (const json::exception&) {
    throw std::runtime_error(f.name + ": not valid JSON");
  }
}

// vocab's {token: id} as a list by id; `end_of_text` the id of "<|endoftext|>" if it has one.
std::vector<std::string> by_id(const json& vocab, const std::string& file, int& end_of_text) {
  if (!vocab.is_object() || vocab.empty()) throw std::runtime_error(file + ": expected the vocabulary as {token: id}");
  std::vector<std::string> tokens(vocab.size());
  std::vector<bool> seen(vocab.size(), false);
  for (const auto& [token, id] : vocab.items()) {
    if (!id.is_number_integer() || id.get<long long>() < 0 || id.get<long long>() >= (long long)tokens.size())
      throw std::runtime_error(file + ": the token \"" + token + "\" has id " + id.dump() + ", outside 0 to " +
                               std::to_string(tokens.size() - 1) + " (ids must number the tokens from 0)");
    const std::size_t i = id.get<std::size_t>();
    if (seen[i]) throw std::runtime_error(file + ": two tokens have id " + std::to_string(i));
    seen[i] = true;
    tokens[i] = token;
    if (token == "<|endoftext|>") end_of_text = int(i);
  }
  return tokens;
}

using Merges = std::vector<std::pair<std::string, std::string>>;

std::pair<std::string, std::string> merge_of(const std::string& line, const std::string& file, std::size_t index) {
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || space == 0 || space + 1 == line.size() || line.find(' ', space + 1) != std::string::npos)
    throw std::runtime_error(file + ": merge " + std::to_string(index) + " (\"" + line + "\") is not two tokens");
  return {line.substr(0, space), line.substr(space + 1)};
}

Tokenizer bpe(std::vector<std::string> tokens, const Merges& merges, int end_of_text, const std::string& file) {
  try {
    return Tokenizer(std::make_shared<const Bpe>(std::move(tokens), merges, end_of_text));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
}

}  // namespace

Tokenizer hugging_face_tokenizer(const std::vector<ModelFile>& files) {
  if (const ModelFile* f = find_file(files, "tokenizer.json")) {
    const json t = parse_json(*f);
    const json* model = t.contains("model") ? &t.at("model") : nullptr;
    if (!model || model->value("type", "BPE") != "BPE" || !model->contains("vocab") || !model->contains("merges"))
      throw std::runtime_error(f->name + ": expected a BPE model (model.type \"BPE\" with vocab and merges)");
    int end_of_text = -1;
    std::vector<std::string> tokens = by_id(model->at("vocab"), f->name, end_of_text);
    // Added tokens (<|endoftext|> among them) past the BPE's own.
    for (const json& added : t.value("added_tokens", json::array())) {
      const std::size_t id = added.at("id").get<std::size_t>();
      if (id >= tokens.size()) tokens.resize(id + 1);
      tokens[id] = added.at("content").get<std::string>();
      if (tokens[id] == "<|endoftext|>") end_of_text = int(id);
    }
    Merges merges;
    for (const json& m : model->at("merges")) {  // "a b", or ["a", "b"] (tokenizers 0.20 on)
      if (m.is_string()) merges.push_back(merge_of(m.get<std::string>(), f->name, merges.size()));
      else merges.emplace_back(m.at(0).get<std::string>(), m.at(1).get<std::string>());
    }
    return bpe(std::move(tokens), merges, end_of_text, f->name);
  }
  const ModelFile* vocab = find_file(files, "vocab.json");
  const ModelFile* merges_file = find_file(files, "merges.txt");
  if (vocab && !merges_file) {
    // A character vocabulary (nanoGPT's export from meta.pkl): every token one character.
    const json chars = parse_json(*vocab);
    int unused = -1;
    const std::vector<std::string> tokens = by_id(chars, vocab->name, unused);
    if (std::all_of(tokens.begin(), tokens.end(), [](const std::string& t) { return decode_utf8(t).size() == 1; })) {
      try {
        return Tokenizer(Vocabulary(tokens, false));
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(vocab->name + ": " + e.what());
      }
    }
  }
  if (!vocab || !merges_file)
    throw std::runtime_error(std::string(vocab ? "merges.txt" : "vocab.json") +
                             ": missing: the model's tokenizer is tokenizer.json, or vocab.json with merges.txt");
  int end_of_text = -1;
  std::vector<std::string> tokens = by_id(parse_json(*vocab), vocab->name, end_of_text);
  Merges merges;
  for (std::size_t at = 0; at < merges_file->bytes.size();) {
    std::size_t end = merges_file->bytes.find('\n', at);
    if (end == std::string_view::npos) end = merges_file->bytes.size();
    std::string line(merges_file->bytes.substr(at, end - at));
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("#version", 0) == 0) continue;
    merges.push_back(merge_of(line, merges_file->name, merges.size()));
  }
  return bpe(std::move(tokens), merges, end_of_text, merges_file->name);
}

Tokenizer llmc_tokenizer(const ModelFile& f) {
  const auto fail = [&](const std::string& why) { return std::runtime_error(f.name + ": " + why); };
  if (f.bytes.size() < 1024 || little_endian<std::uint32_t>(f.bytes, 0) != 20240328)
    throw fail("not llm.c's tokenizer file (expected its 1,024-byte header, magic 20240328)");
  const std::uint32_t version = little_endian<std::uint32_t>(f.bytes, 4), count = little_endian<std::uint32_t>(f.bytes, 8);
  if (version != 1 && version != 2) throw fail("tokenizer version " + std::to_string(version) + " (1 and 2 are read)");
  const int end_of_text = version == 2 ? int(little_endian<std::uint32_t>(f.bytes, 12)) : int(count) - 1;
  std::vector<std::string> tokens;
  std::size_t at = 1024;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (at >= f.bytes.size() || at + 1 + std::uint8_t(f.bytes[at]) > f.bytes.size())
      throw fail("truncated: token " + std::to_string(i) + " of " + std::to_string(count) + " runs past the end");
    const std::size_t length = std::uint8_t(f.bytes[at]);
    const std::string bytes(f.bytes.substr(at + 1, length));
    tokens.push_back(int(i) == end_of_text ? bytes : byte_symbols(bytes));
    at += 1 + length;
  }
  return bpe(std::move(tokens), {}, end_of_text, f.name);
}

void check_fits(const Tokenizer& t, int rows, const std::string& file) {
  if (t.size() > rows)
    throw std::runtime_error(file + ": token ids run to " + std::to_string(t.size() - 1) + ", past the embedding's " +
                             std::to_string(rows) + " rows");
}

}  // namespace lm
