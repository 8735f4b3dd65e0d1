// The language model's weight file (docs/model.md, "The weight file"), little-endian:
//
//   bytes 0–3     "ATLM"
//   bytes 4–7     format version, uint32 (1)
//   bytes 8–11    header length H, uint32
//   H bytes       the header: UTF-8 JSON with the configuration ("layers", "heads",
//                 "d_model", "d_k", "context"), the "vocabulary" (token 1 onwards; token 0 is
//                 the unknown character), "dtype": "float16" and "tensors": [{"name",
//                 "shape": [rows, cols]}] in the order they follow
//   the tensors   IEEE binary16, row-major, one after another
//   last 4 bytes  FNV-1a (32-bit) of every byte before them, uint32
//
// Loading rejects a missing, truncated or corrupt file with std::runtime_error naming the
// file and what is wrong with it.
#pragma once

#include <string>

#include "language_model.h"

namespace lm {

// The model's parameters rounded to the nearest half-precision values: what save() writes
// and load() reads back, so a report measured on it is the shipped model's.
LanguageModel rounded_to_half(LanguageModel m);

// Throws std::invalid_argument on a parameter that is not finite or beyond half's range.
std::string serialise(const LanguageModel& m);
void save(const LanguageModel& m, const std::string& path);

// `name` is how the error messages call the bytes (the file's path).
LanguageModel parse(const std::string& bytes, const std::string& name);
LanguageModel load(const std::string& path);

}  // namespace lm
