// The tokenizer files beside a model: Hugging Face's tokenizer.json, or vocab.json with
// merges.txt (GPT-2's byte-level BPE; what save_pretrained writes), or vocab.json alone with a
// character for every token (a character model: nanoGPT's export from meta.pkl), and llm.c's
// gpt2_tokenizer.bin (a 256-int32 header: magic 20240328, version 1 or 2, the token count,
// and from version 2 the end-of-text id; then each token as a length byte and its bytes).
#pragma once

#include <vector>

#include "format.h"
#include "tokenizer.h"

namespace lm {

// From tokenizer.json, else vocab.json + merges.txt, else a character vocab.json. Throws std::runtime_error naming the file
// on one that does not parse, or a set with neither (naming what was looked for).
Tokenizer hugging_face_tokenizer(const std::vector<ModelFile>& files);
// Throws std::runtime_error naming the file on a bad or truncated one.
Tokenizer llmc_tokenizer(const ModelFile& file);

// Throws std::runtime_error naming `file` when a token id reaches past the embedding's rows.
void check_fits(const Tokenizer& t, int rows, const std::string& file);

}  // namespace lm
