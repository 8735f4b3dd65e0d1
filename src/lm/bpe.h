// GPT-2's byte-level BPE (Radford et al. 2019; openai/gpt-2's encoder.py, which Hugging Face's
// GPT2Tokenizer and llm.c's tokenizer follow):
//   1. the text is cut into words by the pattern
//        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   2. each word's UTF-8 bytes become printable characters through bytes_to_unicode's table
//      (a byte that is printable stays itself; the others map to U+0100 onwards), so
//      "Ġ" is the space;
//   3. the word's symbols, one per byte at first, are merged pair by pair, the pair of lowest
//      rank first, until no pair has a rank; each symbol left is a token.
// The ranks come from merges.txt's order (Hugging Face's files), or, where only the vocabulary
// is known (llm.c's gpt2_tokenizer.bin), from the id of the merged token: GPT-2's vocabulary
// numbers its tokens in the order their merges were learnt, as tiktoken reads it.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lm {

class Bpe {
 public:
  // `tokens[id]`: the token's symbols in bytes_to_unicode's characters (vocab.json's keys);
  // `merges`: the pairs in rank order, or none to rank a pair by its merged token's id.
  // `end_of_text`: the id of "<|endoftext|>" (-1 for none). Throws std::invalid_argument on a
  // repeated token, a merge whose parts are not tokens, or a byte without a token.
  Bpe(std::vector<std::string> tokens, const std::vector<std::pair<std::string, std::string>>& merges, int end_of_text);

  int size() const { return int(tokens_.size()); }
  // The token's bytes (UTF-8 only where the token ends on a whole character).
  const std::string& bytes(int token) const { return bytes_[std::size_t(token)]; }

  std::vector<int> encode(const std::string& text) const;

 private:
  std::vector<int> encode_word(const std::string& word) const;
  int rank(const std::string& left, const std::string& right) const;  // -1: no merge

  std::vector<std::string> tokens_, bytes_;
  std::unordered_map<std::string, int> ids_;
  std::unordered_map<std::string, int> ranks_;  // "left right" → rank; empty: ranked by id
  int end_of_text_ = -1;
};

// Bytes in bytes_to_unicode's characters (what vocab.json's keys are made of).
std::string byte_symbols(const std::string& bytes);

// GPT-2's pre-tokenisation: the text's words, as byte strings that join to it.
std::vector<std::string> gpt2_words(const std::string& text);

}  // namespace lm
