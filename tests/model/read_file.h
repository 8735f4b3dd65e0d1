// A whole file's bytes, for the model's tests (the shipped weights, the report, the corpus).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
