// Reading a model from the files people have (docs/your-model.md): one reader per format, each
// a file behind this interface, and read_model(), which recognises the set by its contents.
//   safetensors  Hugging Face's GPT-2 or GPT-Neo: model.safetensors + config.json + tokenizer
//                files (tokenizer.json, or vocab.json + merges.txt); nanoGPT's export writes it
//   llm.c        gpt2_*.bin (versions 3 and 5) + gpt2_tokenizer.bin
//   lab          the lab's own weight file (lab_file.h)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "language_model.h"

namespace lm {

// One file the user gave: its name (without folders) and its bytes, held by the caller.
struct ModelFile {
  std::string name;
  std::string_view bytes;
};

struct Format {
  const char* name;
  // Whether the set holds this format's model file, judged by its first bytes (never its name alone).
  bool (*recognises)(const std::vector<ModelFile>& files);
  // Throws std::runtime_error whose message starts with the file at fault and says what is wrong.
  LanguageModel (*read)(const std::vector<ModelFile>& files);
};

const Format& safetensors_format();
const Format& llmc_format();
const Format& lab_format();

// The model the files hold, read by the first format that recognises them; format and name
// set. Throws std::runtime_error naming the file and the problem (a set no format recognises
// names its files and what was looked for).
LanguageModel read_model(const std::vector<ModelFile>& files);

// The file of the set called `name`, or the first whose name ends with `suffix` (nullptr for none).
const ModelFile* find_file(const std::vector<ModelFile>& files, const std::string& name, const std::string& suffix = "");

}  // namespace lm
