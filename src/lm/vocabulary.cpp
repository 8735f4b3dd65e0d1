#include "vocabulary.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace lm {
namespace {

constexpr std::uint32_t kInvalid = 0xFFFFFFFFu;

}  // namespace

std::vector<std::uint32_t> decode_utf8(const std::string& text) {
  std::vector<std::uint32_t> out;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char b = s[i];
    const int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
    std::uint32_t cp = extra == 0 ? b : extra == 1 ? b & 0x1F : extra == 2 ? b & 0x0F : b & 0x07;
    bool ok = extra >= 0 && i + extra < n;
    for (int k = 1; ok && k <= extra; ++k) {
      ok = (s[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    // Overlong forms and surrogates are not characters either.
    static constexpr std::uint32_t smallest[] = {0, 0x80, 0x800, 0x10000};
    if (ok && (cp < smallest[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    out.push_back(ok ? cp : kInvalid);
    i += ok ? std::size_t(extra) + 1 : 1;
  }
  return out;
}

std::string encode_utf8(std::uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += char(cp);
  } else if (cp < 0x800) {
    s += char(0xC0 | (cp >> 6));
    s += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += char(0xE0 | (cp >> 12));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  } else {
    s += char(0xF0 | (cp >> 18));
    s += char(0x80 | ((cp >> 12) & 0x3F));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  }
  return s;
}

Vocabulary::Vocabulary(const std::vector<std::string>& chars, bool unknown_token)
    : chars_(chars), first_(unknown_token ? 1 : 0) {
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const std::vector<std::uint32_t> cps = decode_utf8(chars[i]);
    if (cps.size() != 1 || cps[0] == kInvalid)
      throw std::invalid_argument("vocabulary[" + std::to_string(i) + "]: expected one UTF-8 character");
    code_points_.push_back(cps[0]);
  }
  std::vector<int> order(chars.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return code_points_[a] < code_points_[b]; });
  std::vector<std::uint32_t> sorted;
  for (int i : order) {
    if (!sorted.empty() && sorted.back() == code_points_[i])
      throw std::invalid_argument("vocabulary[" + std::to_string(i) + "]: the character appears twice");
    sorted.push_back(code_points_[i]);
    tokens_.push_back(i + first_);
  }
  code_points_ = std::move(sorted);
}

Vocabulary Vocabulary::from_corpus(const std::string& corpus, const std::string& always, int min_count) {
  std::map<std::uint32_t, long> counts;
  for (std::uint32_t cp : decode_utf8(corpus))
    if (cp != kInvalid) ++counts[cp];
  for (std::uint32_t cp : decode_utf8(always))
    if (cp != kInvalid) counts[cp] = std::max(counts[cp], long(min_count));
  std::vector<std::string> chars;
  for (const auto& [cp, n] : counts)
    if (n >= min_count) chars.push_back(encode_utf8(cp));
  return Vocabulary(chars);
}

const std::string& Vocabulary::text(int token) const {
  static const std::string unknown = kUnknownText;
  return token >= first_ && token < size() ? chars_[std::size_t(token - first_)] : unknown;
}

std::vector<int> Vocabulary::encode(const std::string& text) const {
  std::vector<int> out;
  for (std::uint32_t cp : decode_utf8(text)) {
    const auto it = std::lower_bound(code_points_.begin(), code_points_.end(), cp);
    if (it != code_points_.end() && *it == cp) out.push_back(tokens_[std::size_t(it - code_points_.begin())]);
    else if (first_ == 1) out.push_back(kUnknown);
  }
  return out;
}

}  // namespace lm
