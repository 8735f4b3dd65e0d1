// The lab's own weight file (lab_file.h) as one of the formats read_model() recognises.
#include "format.h"
#include "lab_file.h"

namespace lm {

namespace {
const ModelFile* lab_file(const std::vector<ModelFile>& files) {
  for (const ModelFile& f : files)
    if (f.bytes.substr(0, 4) == "ATLM") return &f;
  return nullptr;
}
}  // namespace

const Format& lab_format() {
  static const Format f{"lab", [](const std::vector<ModelFile>& files) { return lab_file(files) != nullptr; },
                        [](const std::vector<ModelFile>& files) {
                          const ModelFile& file = *lab_file(files);
                          return parse(std::string(file.bytes), file.name);
                        }};
  return f;
}

}  // namespace lm
