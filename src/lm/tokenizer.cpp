#include "tokenizer.h"

namespace lm {

Tokenizer::Tokenizer(Vocabulary characters) : chars_(std::move(characters)) {}
Tokenizer::Tokenizer(std::shared_ptr<const Bpe> bpe) : bpe_(std::move(bpe)) {}

int Tokenizer::size() const { return bpe_ ? bpe_->size() : chars_.size(); }

std::vector<int> Tokenizer::encode(const std::string& text) const { return bpe_ ? bpe_->encode(text) : chars_.encode(text); }

std::string Tokenizer::text(int token) const {
  if (!bpe_) return chars_.text(token);
  // A model's rows past its tokenizer's (a vocabulary padded for speed) have no text.
  if (token < 0 || token >= bpe_->size()) return "<" + std::to_string(token) + ">";
  std::string out;
  for (const std::uint32_t cp : decode_utf8(bpe_->bytes(token)))
    out += cp == 0xFFFFFFFFu ? Vocabulary::kUnknownText : encode_utf8(cp);
  return out;
}

std::vector<std::string> Tokenizer::pieces(const std::vector<int>& tokens) const {
  std::vector<std::string> out;
  if (!bpe_) {
    for (const int t : tokens) out.push_back(chars_.text(t));
    return out;
  }
  // The bytes of all the tokens, cut into characters; each character to the token of its last byte.
  std::string all;
  std::vector<std::size_t> owner;  // the token of each byte
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    all += bpe_->bytes(tokens[i]);
    owner.resize(all.size(), i);
  }
  out.assign(tokens.size(), "");
  std::size_t at = 0;
  for (const std::uint32_t cp : decode_utf8(all)) {
    const bool valid = cp != 0xFFFFFFFFu;
    const std::size_t size = valid ? encode_utf8(cp).size() : 1;
    out[owner[at + size - 1]] += valid ? encode_utf8(cp) : Vocabulary::kUnknownText;
    at += size;
  }
  return out;
}

}  // namespace lm
