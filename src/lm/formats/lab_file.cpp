#include "lab_file.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "bytes.h"
#include "half.h"

namespace lm {
namespace {

constexpr char kMagic[4] = {'A', 'T', 'L', 'M'};
constexpr std::uint32_t kVersion = 1;

std::uint32_t fnv1a(const char* data, std::size_t n) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ std::uint8_t(data[i])) * 16777619u;
  return h;
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += char((v >> (8 * k)) & 0xFF);
}

std::uint32_t get_u32(const std::string& in, std::size_t at) { return little_endian<std::uint32_t>(in, at); }

// A float that is exactly a binary16 value (round_to_half's result), as its 16 bits.
std::uint16_t half_bits(float x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(double(x));
  if (a == 0) return sign;
  if (a < std::ldexp(1.0, -14)) return sign | std::uint16_t(std::lround(std::ldexp(a, 24)));  // subnormal
  int e = 0;
  const double f = std::frexp(a, &e);  // a = f · 2^e, f in [0.5, 1)
  const long mantissa = std::lround((f * 2 - 1) * 1024);
  return sign | std::uint16_t((e - 1 + 15) << 10) | std::uint16_t(mantissa);
}

// Generous bounds on the header's sizes, so that a damaged header cannot ask for gigabytes.
void check_range(const nlohmann::json& header, const char* field, int hi) {
  const int v = header.at(field).get<int>();
  if (v < 1 || v > hi) throw std::invalid_argument(std::string(field) + ": expected 1 to " + std::to_string(hi) + ", got " + std::to_string(v));
}

}  // namespace

LanguageModel rounded_to_half(LanguageModel m) {
  Weights::each(m.params, [](const std::string&, auto& t) { t = t.unaryExpr(&attn::round_to_half); });
  return m;
}

std::string serialise(const LanguageModel& m) {
  const Architecture& c = m.config;
  if (!m.vocab.characters() || m.family != "lab")
    throw std::invalid_argument("the lab's weight file holds the lab's character models only");
  nlohmann::json header = {{"layers", c.layers},  {"heads", c.heads}, {"d_model", c.d_model},
                           {"d_k", c.d_k},        {"context", c.context},
                           {"vocabulary", m.vocab.characters()->entries()}, {"dtype", "float16"}};
  std::string tensors;
  header["tensors"] = nlohmann::json::array();
  Weights::each(m.params, [&](const std::string& name, const auto& t) {
    header["tensors"].push_back({{"name", name}, {"shape", {t.rows(), t.cols()}}});
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      const float h = attn::round_to_half(t.data()[i]);
      if (!std::isfinite(h))
        throw std::invalid_argument(name + ": a value (" + std::to_string(t.data()[i]) + ") has no half-precision form");
      const std::uint16_t bits = half_bits(h);
      tensors += char(bits & 0xFF);
      tensors += char(bits >> 8);
    }
  });
  const std::string text = header.dump();
  std::string out(kMagic, 4);
  put_u32(out, kVersion);
  put_u32(out, std::uint32_t(text.size()));
  out += text;
  out += tensors;
  put_u32(out, fnv1a(out.data(), out.size()));
  return out;
}

void save(const LanguageModel& m, const std::string& path) {
  const std::string bytes = serialise(m);
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), std::streamsize(bytes.size()));
  if (!f) throw std::runtime_error(path + ": cannot write the file");
}

LanguageModel parse(const std::string& bytes, const std::string& name) {
  const auto fail = [&](const std::string& why) { return std::runtime_error(name + ": " + why); };
  if (bytes.size() < 16 || std::memcmp(bytes.data(), kMagic, 4) != 0)
    throw fail("not a model weight file (it does not start with \"ATLM\")");
  if (get_u32(bytes, 4) != kVersion)
    throw fail("format version " + std::to_string(get_u32(bytes, 4)) + ", expected " + std::to_string(kVersion));
  const std::uint32_t header_size = get_u32(bytes, 8);
  if (12 + std::size_t(header_size) + 4 > bytes.size()) throw fail("truncated (the header runs past the end)");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(bytes.substr(12, header_size));
  } catch (const nlohmann::json::exception&) {
    throw fail("the header is not valid JSON (a corrupt file)");
  }
  Vocabulary vocab;
  train::Config config;
  std::size_t expected = 0;
  try {
    std::vector<std::string> chars = header.at("vocabulary").get<std::vector<std::string>>();
    vocab = Vocabulary(chars);
    for (const auto& [field, hi] : {std::pair<const char*, int>{"layers", 16}, {"heads", 64}, {"d_model", 4096},
                                    {"d_k", 4096}, {"context", 65536}})
      check_range(header, field, hi);
    config = model_config(header.at("layers").get<int>(), header.at("heads").get<int>(),
                          header.at("d_model").get<int>(), header.at("context").get<int>(), vocab.size(), 0);
    config.d_k = header.at("d_k").get<int>();
    if (header.at("dtype").get<std::string>() != "float16") throw fail("dtype: expected float16");
    for (const auto& t : header.at("tensors")) expected += t.at("shape")[0].get<std::size_t>() * t.at("shape")[1].get<std::size_t>();
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("the header lacks a field or has one of the wrong type (") + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    throw fail(e.what());
  }
  const std::size_t size = 12 + std::size_t(header_size) + 2 * expected + 4;
  if (bytes.size() < size)
    throw fail("truncated: " + std::to_string(bytes.size()) + " bytes, the header describes " + std::to_string(size));
  if (bytes.size() > size) throw fail("has " + std::to_string(bytes.size() - size) + " bytes past its end");
  if (fnv1a(bytes.data(), size - 4) != get_u32(bytes, size - 4))
    throw fail("corrupt: its checksum does not match its contents");

  // The tensors' names and shapes must be those of the configuration, in its order.
  train::Params params = train::init_params(config);
  std::size_t at = 12 + header_size, index = 0;
  const nlohmann::json& listed = header.at("tensors");
  train::Params::each(params, [&](const std::string& tensor, Matrix& t) {
    if (index >= listed.size() || listed[index].at("name") != tensor ||
        listed[index].at("shape")[0].get<Eigen::Index>() != t.rows() || listed[index].at("shape")[1].get<Eigen::Index>() != t.cols())
      throw fail("tensors[" + std::to_string(index) + "]: expected " + tensor + " of shape " + std::to_string(t.rows()) +
                 " × " + std::to_string(t.cols()));
    for (Eigen::Index i = 0; i < t.size(); ++i, at += 2)
      t.data()[i] = half_value(std::uint16_t(std::uint8_t(bytes[at]) | (std::uint8_t(bytes[at + 1]) << 8)));
    ++index;
  });
  if (index != listed.size()) throw fail("tensors: " + std::to_string(listed.size() - index) + " more than the configuration has");
  train::Params::each(params, [&](const std::string& tensor, const Matrix& t) {
    if (!t.allFinite()) throw fail(tensor + ": a value is not finite");
  });
  LanguageModel m = lab_model(vocab, config, params);
  m.name = name;
  return m;
}

LanguageModel load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot open the model's weight file (missing?)");
  std::ostringstream s;
  s << f.rdbuf();
  return parse(s.str(), path);
}

}  // namespace lm
