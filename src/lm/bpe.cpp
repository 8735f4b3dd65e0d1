#include "bpe.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <stdexcept>

#include "vocabulary.h"  // decode_utf8, encode_utf8

namespace lm {

namespace {

struct CodeRange {
  std::uint32_t first, last;
};
#include "unicode_classes.inc"  // kLetters, kNumbers (cmake/unicode_classes.py)

template <std::size_t N>
bool in(const CodeRange (&table)[N], std::uint32_t cp) {
  const CodeRange* end = table + N;
  const CodeRange* it = std::upper_bound(table, end, cp, [](std::uint32_t c, const CodeRange& r) { return c < r.first; });
  return it != table && cp <= (it - 1)->last;
}

// Python's str.isspace(), which the pattern's \s is in the regex module.
bool is_space(std::uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

enum class Kind { letter, number, space, other };
Kind kind_of(std::uint32_t cp) {
  if (in(kLetters, cp)) return Kind::letter;
  if (in(kNumbers, cp)) return Kind::number;
  if (is_space(cp)) return Kind::space;
  return Kind::other;  // an invalid byte too
}

// bytes_to_unicode(): the printable bytes ! … ~, ¡ … ¬, ® … ÿ stand for themselves; the other
// 68 take the code points 256, 257, … in byte order.
const std::array<std::string, 256>& byte_symbol() {
  static const std::array<std::string, 256> table = [] {
    std::array<std::string, 256> t;
    int next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      t[std::size_t(b)] = encode_utf8(std::uint32_t(printable ? b : next++));
    }
    return t;
  }();
  return table;
}

}  // namespace

std::string byte_symbols(const std::string& bytes) {
  std::string out;
  for (const char b : bytes) out += byte_symbol()[std::uint8_t(b)];
  return out;
}

std::vector<std::string> gpt2_words(const std::string& text) {
  // The text's characters, each with its bytes (an invalid byte is a character of its own).
  struct Char {
    std::uint32_t cp;
    Kind kind;
    std::size_t at, size;
  };
  std::vector<Char> cs;
  std::size_t at = 0;
  for (const std::uint32_t cp : decode_utf8(text)) {
    const bool valid = cp != 0xFFFFFFFFu;
    const std::size_t size = valid ? encode_utf8(cp).size() : 1;
    cs.push_back({cp, kind_of(cp), at, size});
    at += size;
  }
  const std::size_t n = cs.size();
  const auto is = [&](std::size_t i, Kind k) { return i < n && cs[i].kind == k; };
  const auto ascii = [&](std::size_t i, char c) { return i < n && cs[i].cp == std::uint32_t(c); };
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n;) {
    std::size_t end = i;
    // 's|'t|'re|'ve|'m|'ll|'d (case-sensitive, as GPT-2's pattern is)
    if (ascii(i, '\'')) {
      if (ascii(i + 1, 's') || ascii(i + 1, 't') || ascii(i + 1, 'm') || ascii(i + 1, 'd')) end = i + 2;
      else if ((ascii(i + 1, 'r') && ascii(i + 2, 'e')) || (ascii(i + 1, 'v') && ascii(i + 2, 'e')) ||
               (ascii(i + 1, 'l') && ascii(i + 2, 'l')))
        end = i + 3;
    }
    if (end == i) {
      // ' ?\p{L}+' | ' ?\p{N}+' | ' ?[^\s\p{L}\p{N}]+': an optional space, then a run of one kind.
      const std::size_t j = ascii(i, ' ') ? i + 1 : i;
      for (const Kind k : {Kind::letter, Kind::number, Kind::other}) {
        if (!is(j, k)) continue;
        end = j;
        while (is(end, k)) ++end;
        break;
      }
    }
    if (end == i) {
      // '\s+(?!\S)' keeps the run's last space for the word after it; '\s+' takes a lone one.
      std::size_t run = i;
      while (is(run, Kind::space)) ++run;
      end = run == n || run - i == 1 ? run : run - 1;
    }
    words.push_back(text.substr(cs[i].at, cs[end - 1].at + cs[end - 1].size - cs[i].at));
    i = end;
  }
  return words;
}

Bpe::Bpe(std::vector<std::string> tokens, const std::vector<std::pair<std::string, std::string>>& merges, int end_of_text)
    : tokens_(std::move(tokens)), end_of_text_(end_of_text) {
  // Each symbol's bytes: the table read backwards.
  std::unordered_map<std::uint32_t, char> byte_of;
  for (int b = 0; b < 256; ++b) byte_of[decode_utf8(byte_symbol()[std::size_t(b)]).front()] = char(b);
  for (std::size_t id = 0; id < tokens_.size(); ++id) {
    if (!ids_.emplace(tokens_[id], int(id)).second)
      throw std::invalid_argument("vocabulary: the token \"" + tokens_[id] + "\" appears twice");
    std::string bytes;
    if (int(id) == end_of_text_) bytes = tokens_[id];
    else
      for (const std::uint32_t cp : decode_utf8(tokens_[id])) {
        const auto it = byte_of.find(cp);
        if (it == byte_of.end()) {  // a token outside the byte table (an added token): its own text
          bytes = tokens_[id];
          break;
        }
        bytes += it->second;
      }
    bytes_.push_back(bytes);
  }
  for (int b = 0; b < 256; ++b)
    if (!ids_.count(byte_symbol()[std::size_t(b)])) throw std::invalid_argument("vocabulary: no token for the byte " + std::to_string(b));
  for (std::size_t r = 0; r < merges.size(); ++r) {
    const auto& [left, right] = merges[r];
    if (!ids_.count(left) || !ids_.count(right) || !ids_.count(left + right))
      throw std::invalid_argument("merges[" + std::to_string(r) + "]: \"" + left + " " + right + "\" is not a merge of two tokens into one");
    ranks_.emplace(left + " " + right, int(r));
  }
}

int Bpe::rank(const std::string& left, const std::string& right) const {
  if (!ranks_.empty()) {
    const auto it = ranks_.find(left + " " + right);
    return it == ranks_.end() ? -1 : it->second;
  }
  const auto it = ids_.find(left + right);
  return it == ids_.end() || it->second == end_of_text_ ? -1 : it->second;
}

std::vector<int> Bpe::encode_word(const std::string& word) const {
  std::vector<std::string> parts;
  for (const char b : word) parts.push_back(byte_symbol()[std::uint8_t(b)]);
  while (parts.size() > 1) {
    int best = INT_MAX;
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      const int r = rank(parts[i], parts[i + 1]);
      if (r >= 0 && r < best) best = r, at = i;
    }
    if (best == INT_MAX) break;
    // Every occurrence of the best pair, left to right, as encoder.py's bpe() merges them.
    const std::string left = parts[at], right = parts[at + 1];
    std::vector<std::string> merged;
    for (std::size_t i = 0; i < parts.size();) {
      if (i + 1 < parts.size() && parts[i] == left && parts[i + 1] == right) merged.push_back(left + right), i += 2;
      else merged.push_back(parts[i++]);
    }
    parts.swap(merged);
  }
  std::vector<int> ids;
  for (const std::string& p : parts) ids.push_back(ids_.at(p));  // every merge's result is a token
  return ids;
}

std::vector<int> Bpe::encode(const std::string& text) const {
  std::vector<int> ids;
  for (const std::string& w : gpt2_words(text)) {
    const std::vector<int> part = encode_word(w);
    ids.insert(ids.end(), part.begin(), part.end());
  }
  return ids;
}

}  // namespace lm
