// A safetensors file (huggingface/safetensors): a little-endian u64 N, an N-byte JSON header
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {…}} whose offsets
// count from the header's end, then the tensors' raw little-endian bytes. The reference reader
// refuses headers over 100 MB; so does this one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "decoder.h"

namespace lm {

class Safetensors {
 public:
  // Checks the header and that every tensor's bytes lie in the file and fit its dtype and
  // shape. Throws std::runtime_error starting with `name` on a truncated file, a header length
  // beyond the file or over 100 MB, a header that is not JSON, or a tensor out of place.
  Safetensors(std::string name, std::string_view bytes);

  struct Tensor {
    std::string dtype;  // "F32", "F16", "BF16", …
    std::vector<long long> shape;
    std::size_t begin = 0, end = 0;  // in the file
  };
  bool has(const std::string& tensor) const { return tensors_.count(tensor) > 0; }
  // The tensor as floats, rows × cols (a 1-D tensor is 1 × n); throws naming the file and
  // the tensor on a missing one, another shape, or a dtype other than F32, F16 and BF16.
  Matrix matrix(const std::string& tensor, long long rows, long long cols) const;
  RowVector vector(const std::string& tensor, long long size) const;

 private:
  std::string name_;
  std::string_view bytes_;
  std::map<std::string, Tensor> tensors_;
};

// Whether the bytes begin as a safetensors file does: a length, then the header's '{'.
bool looks_like_safetensors(std::string_view bytes);

}  // namespace lm
