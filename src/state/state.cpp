// The state's own rules: its comparison, and normalize(), which makes it self-consistent.
// Its keys are keys.cpp's and train_keys.cpp's; its link form, link.cpp's.
#include "state.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>

namespace lab {

// [SECTION] names and comparison --------------------------------------------------------

namespace {
// Every field, named by a structured binding: one that names fewer than State has does not
// build, so a new field cannot be left out of the comparison.
auto tie(const State& s) {
  const auto& [preset, step, query, batch, view, kind, nq, nk, dk, dv, seed, scale, custom_scale, causal, pad, blocked, q,
               k, v, source, query_tokens, key_tokens, loaded_heads, head, project, dmodel, x, wq, wk, wv, theme, lang,
               density, mode, ask, figure, mult, row, pitfall, tile, heads, kv_heads, run, train, play, steps_per_frame,
               vs, text, ablate, open_head, at, target, against, edit, model, model_name, checkpoint] = s;
  return std::tie(preset, step, query, batch, view, kind, nq, nk, dk, dv, seed, scale, custom_scale, causal, pad, blocked,
                  q, k, v, source, query_tokens, key_tokens, loaded_heads, head, project, dmodel, x, wq, wk, wv, theme,
                  lang, density, mode, ask, figure, mult, row, pitfall, tile, heads, kv_heads, run, train, play,
                  steps_per_frame, vs, text, ablate, open_head, at, target, against, edit, model, model_name, checkpoint);
}
}  // namespace

const char* step_name(Step step) { return name_of(step); }

bool State::operator==(const State& o) const { return tie(*this) == tie(o); }

// [SECTION] normalize --------------------------------------------------------------------

void choose_model(State& s, LanguageModelChoice model, std::string name) {
  // The lab's model and its twin share their characters: between them the chosen one stays.
  const bool same_tokens = s.model != LanguageModelChoice::opened && model != LanguageModelChoice::opened;
  s.model = model;
  s.model_name = std::move(name);
  s.checkpoint = 0;
  s.ablate.clear();
  s.open_head.reset();
  if (same_tokens) return;
  s.at = -1;
  s.target.clear();
  s.against.clear();
  s.edit.reset();
}

bool show_head(State& s, int head) {
  if (head < 0 || head >= loaded_head_count(s) || !s.loaded_heads) return false;
  const LoadedHead& h = (*s.loaded_heads)[std::size_t(head)];
  s.q = h.q;
  s.k = h.k;
  s.v = h.v;
  s.pad = h.pad;
  s.blocked = h.blocked;
  s.head = head;
  return true;
}

int loaded_head_count(const State& s) { return s.loaded_heads ? int(s.loaded_heads->size()) : 1; }
int loaded_layer_count(const State& s) { return s.loaded_heads ? s.loaded_heads->back().layer + 1 : 1; }

int max_batches(int nq, int nk) {
  const std::uint64_t per_sequence = std::max<std::uint64_t>(1, std::uint64_t(nq) * std::uint64_t(nk));
  return int(std::clamp<std::uint64_t>(Limits::max_batch_scores / per_sequence, 1, Limits::max_batch));
}

Dims normalized_dims(const State& s) {
  Dims d{s.nq, s.nk, s.dk, s.dv, s.dmodel, s.batches()};
  // Only the scaling experiment goes past the walkthrough's d_k (self-attention's d_v follows).
  if (s.view != View::scaling) d.dk = std::min(d.dk, Limits::max_d);
  if (s.kind == Attention::self) {
    d.nk = d.nq;
    d.dv = d.dk;
  }
  d.batches = std::min(d.batches, max_batches(d.nq, d.nk));
  d.dmodel = std::clamp(d.dmodel, 1, Limits::max_d);
  return d;
}

namespace {
std::uint64_t g_normalizations = 0;
}  // namespace

std::uint64_t normalizations() { return g_normalizations; }

void forget_heads_of_another_shape(State& s) {
  const LoadedHead* shown = s.loaded_heads ? &(*s.loaded_heads)[std::size_t(s.head)] : nullptr;
  if (shown && (s.source.empty() || s.q.size() != shown->q.size() || s.k.size() != shown->k.size() ||
                s.v.size() != shown->v.size())) {
    s.loaded_heads.reset();
    s.head = 0;
  }
}

void normalize(State& s) {
  ++g_normalizations;
  const Dims d = normalized_dims(s);
  s.dk = d.dk;
  s.nk = d.nk;
  s.dv = d.dv;
  if (s.kind == Attention::self) s.k.clear(), s.v.clear();
  if (s.pad.size() > std::size_t(d.batches)) s.pad.resize(std::size_t(d.batches));
  const std::size_t b = std::size_t(s.batches());
  s.dmodel = d.dmodel;
  // With projections Q comes from X; without, X and the W are not used.
  if (s.projected()) s.q.clear();
  else s.x.clear(), s.wq.clear(), s.wk.clear(), s.wv.clear();
  if (s.x.size() != b * s.nq * s.dmodel) s.x.clear();
  if (s.wq.size() != std::size_t(s.dmodel) * s.dk) s.wq.clear();
  if (s.wk.size() != std::size_t(s.dmodel) * s.dk) s.wk.clear();
  if (s.wv.size() != std::size_t(s.dmodel) * s.dv) s.wv.clear();
  if (s.q.size() != b * s.nq * s.dk) s.q.clear();
  if (s.k.size() != b * s.nk * s.dk) s.k.clear();
  if (s.v.size() != b * s.nk * s.dv) s.v.clear();
  for (int& len : s.pad) len = std::clamp(len, 0, s.nk);
  s.blocked.erase(std::remove_if(s.blocked.begin(), s.blocked.end(),
                                 [&](const std::pair<int, int>& c) {
                                   return c.first >= s.nq || c.second >= s.nk;
                                 }),
                  s.blocked.end());
  std::sort(s.blocked.begin(), s.blocked.end());
  s.blocked.erase(std::unique(s.blocked.begin(), s.blocked.end()), s.blocked.end());
  if (s.scale != attn::ScaleMode::custom) s.custom_scale = 1.0f;  // only a custom scale has one
  // Values typed into the interface are held to the same limits as values in a link.
  s.custom_scale = std::isfinite(s.custom_scale)
                       ? std::clamp(s.custom_scale, -Limits::max_custom_scale, Limits::max_custom_scale)
                       : 1.0f;
  for (std::vector<float>* m : {&s.q, &s.k, &s.v, &s.x, &s.wq, &s.wk, &s.wv})
    for (float& x : *m) x = std::isfinite(x) ? std::clamp(x, -Limits::max_value, Limits::max_value) : 0.0f;
  // Loaded data is cross-attention's Q, K, V: without them nothing loaded is shown any more.
  if (s.kind != Attention::cross || s.q.empty() || s.k.empty() || s.v.empty()) {
    s.source.clear();
    s.query_tokens.clear();
    s.key_tokens.clear();
  }
  forget_heads_of_another_shape(s);
  s.query = std::clamp(s.query, 0, s.nq - 1);
  s.batch = std::clamp(s.batch, 0, s.batches() - 1);
  s.steps_per_frame = std::clamp(s.steps_per_frame, 1, TrainLimits::max_steps_per_frame);
  if (s.text.size() > std::size_t(Limits::max_text_bytes)) {
    std::size_t end = std::size_t(Limits::max_text_bytes);
    while (end > 0 && (static_cast<unsigned char>(s.text[end]) & 0xC0) == 0x80) --end;  // not inside a character
    s.text.resize(end);
  }
  std::sort(s.ablate.begin(), s.ablate.end());
  s.ablate.erase(std::unique(s.ablate.begin(), s.ablate.end()), s.ablate.end());
}

}  // namespace lab
