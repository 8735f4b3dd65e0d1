// A character model's tokens: one per Unicode character (code point) it knows. The lab's
// models have token 0 for every character they do not (shown as "�"); a vocabulary without
// it (nanoGPT's character runs: tokens 0… are the characters) leaves such characters out of
// what it encodes. Text is UTF-8; a byte sequence that is not valid UTF-8 reads as unknown
// characters, one per bad byte.
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
  // With `unknown_token`, token 0 is the unknown character and tokens 1… are `chars` in their
  // order (UTF-8, one code point each); without, tokens 0… are `chars`. Throws
  // std::invalid_argument on an empty, repeated or multi-character entry.
  explicit Vocabulary(const std::vector<std::string>& chars, bool unknown_token = true);

  // The characters the model learns from a corpus: every code point in `always`, and every
  // other one the corpus holds at least `min_count` times; sorted by code point.
  static Vocabulary from_corpus(const std::string& corpus, const std::string& always, int min_count);

  int size() const { return int(chars_.size()) + first_; }
  bool has_unknown_token() const { return first_ == 1; }
  // The token's text ("�" for the unknown token); the entries as given (without token 0).
  const std::string& text(int token) const;
  const std::vector<std::string>& entries() const { return chars_; }

  // One token per character of the UTF-8 text (per known character, without an unknown token).
  std::vector<int> encode(const std::string& text) const;

 private:
  std::vector<std::string> chars_;
  std::vector<std::uint32_t> code_points_;  // sorted copy for lookup
  std::vector<int> tokens_;                 // the token of each code_points_ entry
  int first_ = 1;                           // the first character's token
};

// The code points of UTF-8 text, one per character; an invalid byte gives 0xFFFFFFFF.
std::vector<std::uint32_t> decode_utf8(const std::string& text);
std::string encode_utf8(std::uint32_t code_point);

}  // namespace lm
