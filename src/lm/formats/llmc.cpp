// llm.c's model file (karpathy/llm.c, train_gpt2.py's write_model): a 256-int32 header (magic
// 20240326; version 3 for float32, 5 for bfloat16; max T, V, L, heads, C, padded V), then the
// tensors in nn.Linear's out × in layout, each stacked over the layers, in this order:
//   wte (Vp, C), wpe (T, C), ln1w (L, C), ln1b, qkvw (L, 3C, C), qkvb (L, 3C), attprojw (L, C, C),
//   attprojb (L, C), ln2w, ln2b, fcw (L, 4C, C), fcb (L, 4C), fcprojw (L, C, 4C), fcprojb (L, C),
//   lnfw (C), lnfb (C).
// GPT-2's block: tanh GELU, LayerNorm ε 1e-5, the unembedding tied to wte's first V rows (the
// padding rows are never read). The tokenizer is gpt2_tokenizer.bin beside it.
#include <cmath>
#include <stdexcept>

#include "bytes.h"
#include "format.h"
#include "tokenizer_files.h"

namespace lm {

namespace {

constexpr std::uint32_t kModelMagic = 20240326, kTokenizerMagic = 20240328;

const ModelFile* with_magic(const std::vector<ModelFile>& files, std::uint32_t magic) {
  for (const ModelFile& f : files)
    if (f.bytes.size() >= 4 && little_endian<std::uint32_t>(f.bytes, 0) == magic) return &f;
  return nullptr;
}

// Reads the stacked tensors one after another.
class Reader {
 public:
  Reader(const ModelFile& f, bool bf16) : f_(f), size_(bf16 ? 2 : 4), at_(1024) {}
  // The next rows × cols values, as a matrix.
  Matrix next(const char* what, long long rows, long long cols) {
    const std::size_t bytes = std::size_t(rows * cols) * size_;
    if (at_ + bytes > f_.bytes.size())
      throw std::runtime_error(f_.name + ": truncated: " + what + " runs past the end of the file (" +
                               std::to_string(f_.bytes.size()) + " bytes)");
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i, at_ += size_)
      m.data()[i] = size_ == 2 ? bfloat16_value(little_endian<std::uint16_t>(f_.bytes, at_))
                               : float32_value(little_endian<std::uint32_t>(f_.bytes, at_));
    if (!m.allFinite()) throw std::runtime_error(f_.name + ": " + what + ": a value is not finite");
    return m;
  }
  // One stacked tensor: L matrices of rows × cols (a vector each: rows 1).
  std::vector<Matrix> stacked(const char* what, int layers, long long rows, long long cols) {
    std::vector<Matrix> out;
    for (int l = 0; l < layers; ++l) out.push_back(next(what, rows, cols));
    return out;
  }
  std::size_t at() const { return at_; }

 private:
  const ModelFile& f_;
  std::size_t size_, at_;
};

LanguageModel read(const std::vector<ModelFile>& files) {
  const ModelFile& f = *with_magic(files, kModelMagic);
  const auto fail = [&](const std::string& why) { return std::runtime_error(f.name + ": " + why); };
  if (f.bytes.size() < 1024) throw fail("truncated: shorter than llm.c's 1,024-byte header");
  const auto header = [&](int i) { return int(little_endian<std::uint32_t>(f.bytes, std::size_t(i) * 4)); };
  const int version = header(1);
  if (version != 3 && version != 5)
    throw fail("version " + std::to_string(version) + " (3, float32, and 5, bfloat16, are read: llm.c's padded-vocabulary files)");
  LanguageModel m;
  m.family = "gpt2";
  m.name = f.name;
  Architecture& a = m.config;
  a.context = header(2), a.vocab = header(3), a.layers = header(4), a.heads = header(5), a.d_model = header(6);
  const int padded = header(7);
  for (const auto& [name, v] : {std::pair<const char*, int>{"max T", a.context}, {"V", a.vocab}, {"L", a.layers},
                                {"heads", a.heads}, {"C", a.d_model}})
    if (v < 1 || v > (1 << 20)) throw fail(std::string("header: ") + name + " is " + std::to_string(v));
  if (padded < a.vocab) throw fail("header: the padded vocabulary (" + std::to_string(padded) + ") is smaller than V (" + std::to_string(a.vocab) + ")");
  if (a.d_model % a.heads)
    throw fail("header: C (" + std::to_string(a.d_model) + ") is not a multiple of the heads (" + std::to_string(a.heads) + ")");
  a.d_k = a.d_model / a.heads;
  a.d_mlp = 4 * a.d_model;
  a.score_scale = float(1 / std::sqrt(double(a.d_k)));
  const long long c = a.d_model, L = a.layers;
  Reader r(f, version == 5);
  Weights& w = m.params;
  w.embed = r.next("wte", padded, c).topRows(a.vocab);
  w.pos = r.next("wpe", a.context, c);
  const auto ln1w = r.stacked("ln1w", a.layers, 1, c), ln1b = r.stacked("ln1b", a.layers, 1, c);
  const auto qkvw = r.stacked("qkvw", a.layers, 3 * c, c), qkvb = r.stacked("qkvb", a.layers, 1, 3 * c);
  const auto projw = r.stacked("attprojw", a.layers, c, c), projb = r.stacked("attprojb", a.layers, 1, c);
  const auto ln2w = r.stacked("ln2w", a.layers, 1, c), ln2b = r.stacked("ln2b", a.layers, 1, c);
  const auto fcw = r.stacked("fcw", a.layers, 4 * c, c), fcb = r.stacked("fcb", a.layers, 1, 4 * c);
  const auto fcprojw = r.stacked("fcprojw", a.layers, c, 4 * c), fcprojb = r.stacked("fcprojb", a.layers, 1, c);
  w.final_norm = {r.next("lnfw", 1, c).row(0), r.next("lnfb", 1, c).row(0)};
  if (r.at() != f.bytes.size())
    throw fail(std::to_string(f.bytes.size() - r.at()) + " bytes past the last tensor (a header that does not match the tensors?)");
  for (long long l = 0; l < L; ++l) {
    Block b;
    b.ln1 = {ln1w[l].row(0), ln1b[l].row(0)};
    b.ln2 = {ln2w[l].row(0), ln2b[l].row(0)};
    const Matrix qkv = qkvw[l].transpose();  // C × 3C: Q | K | V
    b.wq = qkv.leftCols(c), b.wk = qkv.middleCols(c, c), b.wv = qkv.rightCols(c);
    b.bq = qkvb[l].row(0).head(c), b.bk = qkvb[l].row(0).segment(c, c), b.bv = qkvb[l].row(0).tail(c);
    b.wo = projw[l].transpose(), b.bo = projb[l].row(0);
    b.mlp_in = fcw[l].transpose(), b.mlp_in_bias = fcb[l].row(0);
    b.mlp_out = fcprojw[l].transpose(), b.mlp_out_bias = fcprojb[l].row(0);
    w.layers.push_back(std::move(b));
  }
  w.tied = true;
  w.unembed = w.embed.transpose();
  const ModelFile* tokenizer = with_magic(files, kTokenizerMagic);
  if (!tokenizer) throw std::runtime_error("gpt2_tokenizer.bin: missing: llm.c's model comes with its tokenizer file");
  m.vocab = llmc_tokenizer(*tokenizer);
  check_fits(m.vocab, a.vocab, tokenizer->name);
  return m;
}

}  // namespace

const Format& llmc_format() {
  static const Format f{"llm.c", [](const std::vector<ModelFile>& files) { return with_magic(files, kModelMagic) != nullptr; }, read};
  return f;
}

}  // namespace lm
