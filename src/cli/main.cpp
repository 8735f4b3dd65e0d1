// attention-cli: one request from a file argument or standard input, one response on
// standard output. Exit 0 on success, 2 with an error response on bad input.
//   attention-cli [FILE]         an attention request (docs/contract.md)
//   attention-cli train [FILE]   a training request (docs/training.md)
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "contract.h"
#include "allocator.h"
#include "train_json.h"

int main(int argc, char** argv) {
  const bool train = argc >= 2 && std::string(argv[1]) == "train";
  const int first = train ? 2 : 1;  // where the file argument would be
  const int args = argc - first;
  if (args > 1 || (args == 1 && (std::string(argv[first]) == "-h" || std::string(argv[first]) == "--help"))) {
    std::cerr << "usage: attention-cli [request.json]         an attention request (docs/contract.md)\n"
                 "       attention-cli train [request.json]   a training request (docs/training.md)\n"
                 "(standard input without a file)\n";
    return args > 1 ? 2 : 0;
  }
  std::string text;
  if (args == 1 && std::string(argv[first]) != "-") {
    std::ifstream file(argv[first], std::ios::binary);
    if (!file) {
      std::cout << nlohmann::json{{"error", std::string("request: cannot read file ") + argv[first]}}.dump() << '\n';
      return 2;
    }
    text.assign(std::istreambuf_iterator<char>(file), {});
  } else {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  }
  if (train) train::keep_freed_memory();
  bool ok = false;
  std::cout << (train ? train::train_json(text, &ok) : attn::io::compute_json(text, &ok)) << '\n';
  return ok ? 0 : 2;
}
