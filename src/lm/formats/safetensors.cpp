#include "safetensors.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "bytes.h"

namespace lm {

namespace {

constexpr std::uint64_t kMaxHeader = 100'000'000;

std::size_t dtype_size(const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  return 0;  // not read
}

std::string shape_text(const std::vector<long long>& shape) {
  std::string s;
  for (const long long d : shape) s += (s.empty() ? "" : " × ") + std::to_string(d);
  return s.empty() ? "a scalar" : s;
}

}  // namespace

bool looks_like_safetensors(std::string_view bytes) {
  return bytes.size() >= 9 && bytes[8] == '{';
}

Safetensors::Safetensors(std::string name, std::string_view bytes) : name_(std::move(name)), bytes_(bytes) {
  const auto fail = [&](const std::string& why) { return std::runtime_error(name_ + ": " + why); };
  if (bytes.size() < 8) throw fail("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the header's length");
  const std::uint64_t n = little_endian<std::uint64_t>(bytes, 0);
  if (n > kMaxHeader)
    throw fail("the header's length, " + std::to_string(n) + " bytes, is over the 100 MB safetensors allows (not a safetensors file?)");
  if (8 + n > bytes.size())
    throw fail("the header's length, " + std::to_string(n) + " bytes, runs past the end of the file (" +
               std::to_string(bytes.size()) + " bytes): truncated?");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(std::string(bytes.substr(8, std::size_t(n))));
  } catch (const nlohmann::json::exception&) {
    throw fail("the header is not valid JSON (a corrupt file, or not a safetensors file)");
  }
  if (!header.is_object()) throw fail("the header is not a JSON object");
  const std::size_t data = 8 + std::size_t(n);
  for (const auto& [key, entry] : header.items()) {
    if (key == "__metadata__") continue;
    Tensor t;
    try {
      t.dtype = entry.at("dtype").get<std::string>();
      t.shape = entry.at("shape").get<std::vector<long long>>();
      const auto offsets = entry.at("data_offsets").get<std::vector<std::uint64_t>>();
      if (offsets.size() != 2 || offsets[1] < offsets[0]) throw fail(key + ": data_offsets must be [begin, end]");
      if (data + offsets[1] > bytes.size())
        throw fail(key + ": its data runs past the end of the file (" + std::to_string(bytes.size()) + " bytes): truncated?");
      t.begin = data + std::size_t(offsets[0]);
      t.end = data + std::size_t(offsets[1]);
    } catch (const nlohmann::json::exception& e) {
      throw fail(key + ": the header's entry lacks dtype, shape or data_offsets, or has one of the wrong type");
    }
    long long count = 1;
    for (const long long d : t.shape) {
      if (d < 0 || d > (1ll << 40)) throw fail(key + ": shape " + shape_text(t.shape) + " is not a tensor's");
      count *= d;
    }
    if (const std::size_t size = dtype_size(t.dtype); size && std::size_t(count) * size != t.end - t.begin)
      throw fail(key + ": " + std::to_string(t.end - t.begin) + " bytes of data for " + t.dtype + " of shape " +
                 shape_text(t.shape) + " (" + std::to_string(std::size_t(count) * size) + " expected)");
    tensors_.emplace(key, std::move(t));
  }
}

Matrix Safetensors::matrix(const std::string& tensor, long long rows, long long cols) const {
  const auto fail = [&](const std::string& why) { return std::runtime_error(name_ + ": " + tensor + ": " + why); };
  const auto it = tensors_.find(tensor);
  if (it == tensors_.end()) throw std::runtime_error(name_ + ": no tensor " + tensor);
  const Tensor& t = it->second;
  const std::vector<long long> want = rows == 1 && (t.shape.size() == 1) ? std::vector<long long>{cols}
                                                                          : std::vector<long long>{rows, cols};
  if (t.shape != want) throw fail("expected shape " + shape_text(want) + ", got " + shape_text(t.shape));
  const std::size_t size = dtype_size(t.dtype);
  if (!size) throw fail("dtype " + t.dtype + " is not read (F32, F16 and BF16 are)");
  Matrix m(rows, cols);
  const std::string_view raw = bytes_.substr(t.begin, t.end - t.begin);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const std::size_t at = std::size_t(i) * size;
    m.data()[i] = t.dtype == "F32"  ? float32_value(little_endian<std::uint32_t>(raw, at))
                  : t.dtype == "F16" ? half_value(little_endian<std::uint16_t>(raw, at))
                                     : bfloat16_value(little_endian<std::uint16_t>(raw, at));
  }
  if (!m.allFinite()) throw fail("a value is not finite");
  return m;
}

RowVector Safetensors::vector(const std::string& tensor, long long size) const { return matrix(tensor, 1, size).row(0); }

}  // namespace lm
