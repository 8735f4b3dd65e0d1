// attention-cli: one request (docs/contract.md) from a file argument or standard input,
// one response on standard output. Exit 0 on success, 2 with an error response on bad input.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>

#include "contract.h"

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
    std::cerr << "usage: attention-cli [request.json]   (reads standard input without a file)\n";
    return argc > 2 ? 2 : 0;
  }
  std::string text;
  if (argc == 2 && std::string(argv[1]) != "-") {
    std::ifstream file(argv[1], std::ios::binary);
    if (!file) {
      std::cout << nlohmann::json{{"error", std::string("request: cannot read file ") + argv[1]}}.dump() << '\n';
      return 2;
    }
    text.assign(std::istreambuf_iterator<char>(file), {});
  } else {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  }
  bool ok = false;
  std::cout << attn::io::compute_json(text, &ok) << '\n';
  return ok ? 0 : 2;
}
