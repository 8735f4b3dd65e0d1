#include "model_paths.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lm {

std::vector<ModelFile> PathFiles::files() const {
  std::vector<ModelFile> out;
  for (const auto& [name, bytes] : owned) out.push_back({name, bytes});
  return out;
}

PathFiles read_paths(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  PathFiles out;
  for (const std::string& item : paths) {
    std::vector<fs::path> files;
    std::error_code error;
    if (fs::is_directory(item, error)) {
      for (const auto& entry : fs::directory_iterator(item, error))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(item);
    }
    for (const fs::path& p : files) {
      std::ifstream f(p, std::ios::binary);
      if (!f) throw std::runtime_error(p.string() + ": cannot read the file");
      std::ostringstream s;
      s << f.rdbuf();
      out.owned.emplace_back(p.filename().string(), s.str());
    }
  }
  return out;
}

}  // namespace lm
