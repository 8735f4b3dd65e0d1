// A model's files named on a command line (attention-train-model dump --weights, the desktop's
// --model): files and folders, a folder standing for every file in it.
#pragma once

#include <string>
#include <vector>

#include "format.h"

namespace lm {

// The files' names and bytes, owned here; files() views them for read_model().
struct PathFiles {
  std::vector<std::pair<std::string, std::string>> owned;
  std::vector<ModelFile> files() const;
};

// Throws std::runtime_error naming a path that cannot be read.
PathFiles read_paths(const std::vector<std::string>& paths);

}  // namespace lm
