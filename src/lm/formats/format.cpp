#include "format.h"

#include <stdexcept>

namespace lm {

namespace {
bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}
}  // namespace

const ModelFile* find_file(const std::vector<ModelFile>& files, const std::string& name, const std::string& suffix) {
  for (const ModelFile& f : files)
    if (f.name == name) return &f;
  if (!suffix.empty())
    for (const ModelFile& f : files)
      if (ends_with(f.name, suffix)) return &f;
  return nullptr;
}

LanguageModel read_model(const std::vector<ModelFile>& files) {
  if (files.empty()) throw std::runtime_error("no files given: expected a model's files (docs/your-model.md)");
  for (const Format* f : {&safetensors_format(), &llmc_format(), &lab_format()})
    if (f->recognises(files)) {
      LanguageModel m = f->read(files);
      m.format = f->name;
      return m;
    }
  // A file named as a model file that is not one: say so about it.
  for (const ModelFile& f : files) {
    if (ends_with(f.name, ".safetensors"))
      throw std::runtime_error(f.name + ": not a safetensors file (it does not begin with a header length and a JSON header)");
    if (ends_with(f.name, ".bin"))
      throw std::runtime_error(f.name + ": neither an llm.c model (magic 20240326) nor the lab's weight file (\"ATLM\")");
    if (ends_with(f.name, ".pt"))
      throw std::runtime_error(f.name + ": a PyTorch checkpoint is converted first: python3 -m attention_lab export " + f.name +
                               " --out DIR (docs/your-model.md)");
  }
  std::string names;
  for (const ModelFile& f : files) names += (names.empty() ? "" : ", ") + f.name;
  throw std::runtime_error(names + ": no model file among them (expected model.safetensors with config.json, llm.c's gpt2_*.bin, or the lab's weight file)");
}

}  // namespace lm
