// A model's tokens: one per character (Vocabulary: the lab's model, nanoGPT's character runs)
// or GPT-2's byte-level BPE (Bpe). What the view shows of a text is its pieces: the text each
// token stands for, in order, joining to the text read.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bpe.h"
#include "vocabulary.h"

namespace lm {

class Tokenizer {
 public:
  Tokenizer() = default;
  Tokenizer(Vocabulary characters);  // NOLINT: a character vocabulary is a tokenizer
  explicit Tokenizer(std::shared_ptr<const Bpe> bpe);

  int size() const;
  // The token's text: its character, or for a BPE token its bytes ("�" for bytes that are
  // not whole UTF-8 characters on their own; "<id>" for an id past the tokenizer's).
  std::string text(int token) const;
  std::vector<int> encode(const std::string& text) const;
  // Each token's piece of the text the tokens stand for: every character goes to the token
  // that holds its last byte (a character split over tokens shows on the last of them, the
  // others' pieces empty), so the pieces are UTF-8 and join to the text.
  std::vector<std::string> pieces(const std::vector<int>& tokens) const;

  // "characters" or "gpt2-bpe"; the character vocabulary (nullptr for BPE) and the BPE.
  std::string kind() const { return bpe_ ? "gpt2-bpe" : "characters"; }
  const Vocabulary* characters() const { return bpe_ ? nullptr : &chars_; }
  const Bpe* bpe() const { return bpe_.get(); }

 private:
  Vocabulary chars_;
  std::shared_ptr<const Bpe> bpe_;  // shared: a model's copies (checkpoints, the view) share its merges
};

}  // namespace lm
