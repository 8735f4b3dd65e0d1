// The language model's characters: one token per Unicode character (code point) it knows,
// and token 0 for every character it does not (shown as "�"). Text is UTF-8; a byte
// sequence that is not valid UTF-8 reads as unknown characters, one per bad byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lm {

class Vocabulary {
 public:
  static constexpr int kUnknown = 0;
  static constexpr const char* kUnknownText = "\xEF\xBF\xBD";  // U+FFFD

  Vocabulary() = default;
  // Token 0 is the unknown character; tokens 1… are `chars` in their order (UTF-8, one code
  // point each). Throws std::invalid_argument on an empty, repeated or multi-character entry.
  explicit Vocabulary(const std::vector<std::string>& chars);

  // The characters the model learns from a corpus: every code point in `always`, and every
  // other one the corpus holds at least `min_count` times; sorted by code point.
  static Vocabulary from_corpus(const std::string& corpus, const std::string& always, int min_count);

  int size() const { return int(chars_.size()) + 1; }
  // The token's text ("�" for the unknown token); the entries as given (without token 0).
  const std::string& text(int token) const;
  const std::vector<std::string>& entries() const { return chars_; }

  // One token per character of the UTF-8 text.
  std::vector<int> encode(const std::string& text) const;

 private:
  std::vector<std::string> chars_;
  std::vector<std::uint32_t> code_points_;  // sorted copy for lookup
  std::vector<int> tokens_;                 // the token of each code_points_ entry
};

// The code points of UTF-8 text, one per character; an invalid byte gives 0xFFFFFFFF.
std::vector<std::uint32_t> decode_utf8(const std::string& text);
std::string encode_utf8(std::uint32_t code_point);

}  // namespace lm
