// The presets: each is a complete state, reachable as "#preset=<name>".
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include "keys.h"
#include "state.h"

namespace lab {
namespace {

Preset causal_3x2() {
  // The lesson's worked causal example: Q = K = V = [[1,0],[2,0],[3,0]], the input itself
  // with no projections.
  State s;
  s.preset = "causal-3x2";
  s.kind = Attention::self;
  s.project = false;
  s.nq = s.nk = 3;
  s.dk = s.dv = 2;
  s.q = {1, 0, 2, 0, 3, 0};
  s.causal = attn::Causal::top_left;
  s.query = 2;
  return {"causal-3x2", N_("Causal, 3 tokens (lesson)"), s, {}, {}};
}

Preset saturation() {
  // One query against keys whose raw scores are 0, d_k and 2·d_k at d_k = 64. Unscaled, the
  // softmax puts everything on the last key; scaled by 1/√d_k the scores become 0, 8, 16.
  // V is the identity, so the output row repeats the weights.
  State s;
  s.preset = "saturation";
  s.kind = Attention::cross;
  s.nq = 1;
  s.nk = 3;
  s.dk = 64;
  s.dv = 3;
  s.q.assign(64, 1.0f);
  for (int key = 0; key < 3; ++key) s.k.insert(s.k.end(), 64, float(key));
  s.v = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  s.scale = attn::ScaleMode::none;
  s.step = Step::softmax;
  return {"saturation", N_("Saturation at d_k = 64"), s, {"q"}, {"k0", "k1", "k2"}};
}

Preset random_sentence() {
  State s;
  s.preset = "random";
  s.kind = Attention::self;
  s.nq = s.nk = 6;
  s.dk = s.dv = 8;
  s.dmodel = 8;
  s.seed = 7;
  const std::vector<std::string> tokens{"the", "cat", "sat", "on", "the", "mat"};
  return {"random", N_("A sentence, random"), s, tokens, tokens};
}

Preset cross() {
  // Translation-style cross-attention, English queries over French keys, with vectors chosen by
  // hand on four meanings (an article, "cat", "black", "sleeps"), as training would shape them:
  // each English word's query points where its translation's key points, so "black" finds
  // "noir" after "chat" (French word order), and "the" finds both "le"s (nothing here says
  // where a word is). "sur" and "lit", which no query asks for, are zero. Each value carries
  // its word's meaning, so each output row is close to the meaning of the word found.
  State s;
  s.preset = "cross";
  s.kind = Attention::cross;
  s.nq = 4;
  s.nk = 7;
  s.dk = 4;
  s.dv = 4;
  //     article cat black sleeps
  s.q = {3, 0, 0, 0,   // the
         0, 0, 3, 0,   // black
         0, 3, 0, 0,   // cat
         0, 0, 0, 3};  // sleeps
  s.k = {2, 0, 0, 0,   // le
         0, 2, 0, 0,   // chat
         0, 0, 2, 0,   // noir
         0, 0, 0, 2,   // dort
         0, 0, 0, 0,   // sur
         2, 0, 0, 0,   // le
         0, 0, 0, 0};  // lit
  s.v = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
  return {"cross", N_("Cross-attention 4 × 7"),
          s,
          {"the", "black", "cat", "sleeps"},
          {"le", "chat", "noir", "dort", "sur", "le", "lit"}};
}

Preset padding() {
  // Two sequences of lengths 5 and 3 padded to 5 in one batch: padded keys are masked.
  State s;
  s.preset = "padding";
  s.kind = Attention::self;
  s.nq = s.nk = 5;
  s.dk = s.dv = 4;
  s.seed = 3;
  s.pad = {5, 3};
  s.batch = 1;
  s.step = Step::mask;
  return {"padding", N_("Padding, batch of 2"), s, {}, {}};
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all{causal_3x2(), saturation(), random_sentence(), cross(),
                                       padding()};
  return all;
}

const Preset* find_preset(std::string_view name) {
  for (const Preset& p : presets())
    if (name == p.name) return &p;
  return nullptr;
}

State preset_for(const Preset& preset, const State& shown) {
  State s = preset.state;
  s.theme = shown.theme;
  s.lang = shown.lang;
  s.density = shown.density;
  s.mode = shown.mode;
  s.ask = shown.ask;
  s.figure = shown.figure;
  return s;
}

bool shows_preset(const Preset& preset, const State& s) {
  static constexpr std::string_view kExample[] = {"attn", "n",     "nq", "nk", "dk", "proj", "dmodel",
                                                  "dv",   "seed",  "scale", "causal", "pad", "block", "q",
                                                  "k",    "v",     "x",  "wq", "wk", "wv"};
  return std::none_of(std::begin(kExample), std::end(kExample),
                      [&](std::string_view name) { return find_key(name)->write(s, preset.state, false); });
}

}  // namespace lab
