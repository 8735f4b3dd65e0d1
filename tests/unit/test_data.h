// Locating and reading the test data (tests/data/): the ONNX conformance cases and the tables.
#pragma once

#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace testing_ref {

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) ADD_FAILURE() << "cannot read " << path;
  return {std::istreambuf_iterator<char>(f), {}};
}

// The conformance case files (tests/data/onnx-attention/), sorted; fails the calling test
// loudly when there are none.
inline std::vector<std::string> conformance_files() {
  std::vector<std::string> files;
  const std::string dir = ATTN_TEST_DATA_DIR "/onnx-attention";
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) ADD_FAILURE() << "no conformance cases in " << dir;
  return files;
}

// Flattens nested arrays of numbers (and "-inf") into one list, in order.
inline void flatten(const nlohmann::json& j, std::vector<double>& out) {
  if (j.is_array()) {
    for (const auto& e : j) flatten(e, out);
  } else if (j.is_string()) {
    out.push_back(-std::numeric_limits<double>::infinity());
  } else {
    out.push_back(j.get<double>());
  }
}

}  // namespace testing_ref
