// [SECTION] names and comparison, [SECTION] normalize, [SECTION] number text,
// [SECTION] view=train's keys, [SECTION] the keys, [SECTION] parse_fragment, [SECTION] to_fragment.
#include "state.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <tuple>

#include "figure_parts.h"
#include "gradients.h"  // the views' limits: experiments::kGradientsN, kHeadsMaxSize
#include "heads.h"
#include "number_text.h"  // links write floats in their shortest exact text
#include "typed.h"  // normalize(state, before): a live change keeps typed values

namespace lab {

// [SECTION] names and comparison --------------------------------------------------------

namespace {
// Every field, named by a structured binding: one that names fewer than State has does not
// build, so a new field cannot be left out of the comparison.
auto tie(const State& s) {
  const auto& [preset, step, query, batch, view, kind, nq, nk, dk, dv, seed, scale, custom_scale, causal, pad, blocked, q,
               k, v, source, query_tokens, key_tokens, loaded_heads, head, project, dmodel, x, wq, wk, wv, theme, lang,
               density, mode, ask, figure, mult, row, pitfall, tile, heads, kv_heads, run, train, play, steps_per_frame,
               vs] = s;
  return std::tie(preset, step, query, batch, view, kind, nq, nk, dk, dv, seed, scale, custom_scale, causal, pad, blocked,
                  q, k, v, source, query_tokens, key_tokens, loaded_heads, head, project, dmodel, x, wq, wk, wv, theme,
                  lang, density, mode, ask, figure, mult, row, pitfall, tile, heads, kv_heads, run, train, play,
                  steps_per_frame, vs);
}
}  // namespace

const char* step_name(Step step) { return name_of(step); }

bool State::operator==(const State& o) const { return tie(*this) == tie(o); }

// [SECTION] normalize --------------------------------------------------------------------

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

void normalize(State& s) {
  // Only the scaling experiment goes past the walkthrough's d_k (self-attention's d_v follows).
  if (s.view != View::scaling) s.dk = std::min(s.dk, Limits::max_d);
  if (s.kind == Attention::self) {
    s.nk = s.nq;
    s.dv = s.dk;
    s.k.clear();
    s.v.clear();
  }
  const std::uint64_t scores_per_sequence = std::uint64_t(s.nq) * s.nk;
  if (s.pad.size() * scores_per_sequence > Limits::max_batch_scores)
    s.pad.resize(std::max<std::size_t>(1, Limits::max_batch_scores / scores_per_sequence));
  const std::size_t b = std::size_t(s.batches());
  s.dmodel = std::clamp(s.dmodel, 1, Limits::max_d);
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
  // The other heads belong to the loaded data at its shape.
  const LoadedHead* shown = s.loaded_heads ? &(*s.loaded_heads)[std::size_t(s.head)] : nullptr;
  if (shown && (s.source.empty() || s.q.size() != shown->q.size() || s.k.size() != shown->k.size() ||
                s.v.size() != shown->v.size())) {
    s.loaded_heads.reset();
    s.head = 0;
  }
  s.query = std::clamp(s.query, 0, s.nq - 1);
  s.batch = std::clamp(s.batch, 0, s.batches() - 1);
  s.steps_per_frame = std::clamp(s.steps_per_frame, 1, TrainLimits::max_steps_per_frame);
}

// [SECTION] number text ------------------------------------------------------------------

namespace {

// The whole text must be the number: a NUL inside it would otherwise end strtol/strtof early
// and pass for an empty, zero value.
bool parse_int(std::string_view text, long lo, long hi, long& out) {
  std::string t(text);
  if (t.empty() || t.size() > 12) return false;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(t.c_str(), &end, 10);
  if (errno || end != t.c_str() + t.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

bool parse_float(std::string_view text, float& out) {
  std::string t(text);
  if (t.empty() || t.size() > 40) return false;
  char* end = nullptr;
  errno = 0;
  const float value = std::strtof(t.c_str(), &end);
  if (errno || end != t.c_str() + t.size() || !std::isfinite(value)) return false;
  out = value;
  return true;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

template <class T, class Parse>
bool parse_list(std::string_view text, std::size_t max_items, std::vector<T>& out, Parse parse) {
  std::vector<T> items;
  if (text.empty()) {
    out.clear();
    return true;
  }
  for (std::string_view part : split(text, ',')) {
    if (items.size() == max_items) return false;
    T item;
    if (!parse(part, item)) return false;
    items.push_back(item);
  }
  out = std::move(items);
  return true;
}

template <class T, class Format>
std::string list_text(const std::vector<T>& items, Format format) {
  std::string text;
  for (const T& item : items) text += (text.empty() ? "" : ",") + format(item);
  return text;
}

// Browsers may percent-encode characters of a fragment (",", ":", spaces); the parser reads
// either form. A malformed escape is kept literally and then fails the value's own check.
std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit((unsigned char)text[i + 1]) &&
        std::isxdigit((unsigned char)text[i + 2])) {
      out += char(std::strtol(std::string(text.substr(i + 1, 2)).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// A figure names a few of its view's parts; anything longer is not a figure.
constexpr std::size_t kMaxFigureParts = 16, kMaxFigurePartName = 32;

const std::size_t kMaxMatrix = std::size_t(Limits::max_batch) * Limits::max_n * Limits::max_d;

}  // namespace

template <>
struct Names<train::Positions> {
  static constexpr const auto& list = train::kPositionNames;
};
template <>
struct Names<practice::QuestionKind> {
  static constexpr const auto& list = practice::kKindNames;
};

namespace {

// "walkthrough, compare, … or train": every name of E's one list, for a note in the reader's
// language.
template <class E>
std::string names_text() {
  std::string text;
  const std::string last = std::string(" ") + tr("or") + " ";
  for (const auto& item : Names<E>::list)
    text += (text.empty() ? "" : &item == std::end(Names<E>::list) - 1 ? last : ", ") + std::string(name_in(item));
  return text;
}

// [SECTION] view=train's keys -------------------------------------------------------------

const char* set_whole(int& field, const std::string& value) {
  long n = 0;
  if (!parse_int(value, 0, 0x7fffffffL, n)) return N_("a whole number");
  field = int(n);
  return "";
}

// Every switch of a link (proj, run, play, the model's causal) reads "0" or "1" here.
const char* set_switch(bool& field, std::string_view value) { return parse_name(value, field) ? "" : N_("0 or 1"); }

const char* set_number(float& field, const std::string& value) {
  return parse_float(value, field) ? "" : N_("a number");
}

// The model's settings in a link: key, whether the walkthrough reads the same key (then it
// sets the model only in view=train), its text, and how a value sets it ("" or what was
// expected). Ranges are train::validate()'s, checked by the caller on the whole config.
struct TrainKey {
  const char* key;
  bool shared;
  std::string (*text)(const train::Config&);
  const char* (*set)(train::Config&, const std::string&);
};
using C = train::Config;
using V = const std::string&;
const TrainKey kTrainKeys[] = {
    {"layers", false, [](const C& c) { return std::to_string(c.layers); }, [](C& c, V v) { return set_whole(c.layers, v); }},
    {"heads", true, [](const C& c) { return std::to_string(c.heads); }, [](C& c, V v) { return set_whole(c.heads, v); }},
    {"dmodel", true, [](const C& c) { return std::to_string(c.d_model); }, [](C& c, V v) { return set_whole(c.d_model, v); }},
    {"dk", true, [](const C& c) { return std::to_string(c.d_k); }, [](C& c, V v) { return set_whole(c.d_k, v); }},
    {"seq", false, [](const C& c) { return std::to_string(c.seq); }, [](C& c, V v) { return set_whole(c.seq, v); }},
    {"vocab", false, [](const C& c) { return std::to_string(c.vocab); }, [](C& c, V v) { return set_whole(c.vocab, v); }},
    {"causal", true, [](const C& c) { return std::string(name_of(c.causal)); },
     [](C& c, V v) { return set_switch(c.causal, v); }},
    {"scale", true, [](const C& c) { return std::string(name_of(c.scale)); },
     [](C& c, V v) { return parse_name(v, c.scale) ? "" : N_("sqrt, none or dk"); }},
    {"pos", false, [](const C& c) { return std::string(name_of(c.positions)); },
     [](C& c, V v) { return parse_name(v, c.positions) ? "" : N_("learned or sinusoidal"); }},
    {"init", false, [](const C& c) { return text::shortest(c.init_std); }, [](C& c, V v) { return set_number(c.init_std, v); }},
    {"pinit", false, [](const C& c) { return text::shortest(c.proj_std); }, [](C& c, V v) { return set_number(c.proj_std, v); }},
    {"lr", false, [](const C& c) { return text::shortest(c.lr); }, [](C& c, V v) { return set_number(c.lr, v); }},
    {"batch", true, [](const C& c) { return std::to_string(c.batch); }, [](C& c, V v) { return set_whole(c.batch, v); }},
    {"seed", true, [](const C& c) { return std::to_string(c.seed); },
     [](C& c, V v) {
       int seed = 0;
       const char* expected = set_whole(seed, v);
       if (!*expected) c.seed = std::uint32_t(seed);
       return expected;
     }},
};

const TrainKey* find_train_key(std::string_view key) {
  for (const TrainKey& k : kTrainKeys)
    if (key == k.key) return &k;
  return nullptr;
}

// Sets one model setting on a copy of `c`: "" and the copy in `out`, or the note's reason
// (what was expected, or validate()'s sentence about the resulting model).
std::string set_train(const train::Config& c, const TrainKey& key, const std::string& value, train::Config& out) {
  out = c;
  const char* expected = key.set(out, value);
  if (*expected) return i18n::format(tr("expected %s"), tr(expected));
  return train::validate(out);
}

}  // namespace

std::string compare_config(const State& s, train::Config& out) {
  const std::size_t colon = s.vs.find(':');
  const TrainKey* key = colon == std::string::npos ? nullptr : find_train_key(std::string_view(s.vs).substr(0, colon));
  if (!key) return tr("expected a setting of the model and its value, e.g. scale:none, init:0.02 or lr:0.01");
  return set_train(s.train, *key, s.vs.substr(colon + 1), out);
}


namespace {

// [SECTION] the keys -----------------------------------------------------------------------

// One key=value of a link being read, and the note that says why a value is refused.
struct Reading {
  const std::string& key;
  const std::string& value;
  bool out_of_range = false;  // a number outside the key's range, held to the range's nearest end

  std::string expected_text(const std::string& expected) const {
    return i18n::format(tr("ignored %s=%s: expected %s"), key.c_str(), value.c_str(), expected.c_str());
  }
  // What was expected, as a message translated here with the limits it names (from Limits, so
  // the text cannot drift from the check).
  template <class... Bounds>
  std::string expected(const char* message, Bounds... bounds) const {
    if constexpr (sizeof...(bounds) == 0) return expected_text(tr(message));
    else return expected_text(i18n::format(tr(message), bounds...));
  }
  // A whole number held to [lo, hi]; false when the value is not a whole number at all.
  bool whole(long lo, long hi, int& out) {
    long n = 0;
    if (!parse_int(value, -0x7fffffffL, 0x7fffffffL, n)) return false;
    out_of_range = n < lo || n > hi;
    out = int(std::clamp(n, lo, hi));
    return true;
  }
};

template <class E>
std::string read_name(Reading& r, E& field, const char* expected) {
  return parse_name(r.value, field) ? "" : r.expected(expected);
}
std::string read_switch(Reading& r, bool& field) {
  const char* expected = set_switch(field, r.value);
  return *expected ? r.expected(expected) : "";
}
std::string read_row(Reading& r, int& field) {
  return r.whole(0, Limits::max_n - 1, field) ? "" : r.expected(N_("a row index"));
}
std::string read_dimension(Reading& r, int& field) {
  return r.whole(1, Limits::max_d, field) ? "" : r.expected(N_("a dimension from 1 to %d"), Limits::max_d);
}
std::string read_heads(Reading& r, int& field) {
  return r.whole(1, Limits::max_heads, field) ? "" : r.expected(N_("a number of heads from 1 to %d"), Limits::max_heads);
}
// n sets both sizes, nq and nk one each.
std::string read_size(Reading& r, int* nq, int* nk) {
  int n = 0;
  if (!r.whole(1, Limits::max_n, n)) return r.expected(N_("a size from 1 to %d"), Limits::max_n);
  for (int* size : {nq, nk})
    if (size) *size = n;
  return "";
}
template <std::vector<float> State::*M>
std::string read_matrix(State& s, Reading& r) {
  const auto entry = [](std::string_view t, float& out) {
    return parse_float(t, out) && std::fabs(out) <= Limits::max_value;
  };
  return parse_list(r.value, kMaxMatrix, s.*M, entry)
             ? ""
             : r.expected(N_("numbers from -%g to %g separated by commas"), double(Limits::max_value),
                          double(Limits::max_value));
}

template <auto F>
std::string whole_text(const State& s) {
  return std::to_string(s.*F);
}
template <auto F>
std::string name_text(const State& s) {
  return name_of(s.*F);
}
template <std::vector<float> State::*M>
std::string matrix_text(const State& s) {
  return list_text(s.*M, text::shortest);
}

// When a link writes a key: always in the complete form, otherwise when it differs from the
// preset's.
template <auto... F>
bool changed(const State& s, const State& base, bool complete) {
  return complete || ((s.*F != base.*F) || ...);
}
// How the model's runs play: written where it differs from the built-in default, whatever the
// preset (a link may set it before switching to view=train); complete in view=train only.
template <auto F>
bool run_changed(const State& s, const State&, bool complete) {
  static const State plain;
  return (complete && s.view == View::train) || s.*F != plain.*F;
}
// A typed matrix only when it differs (never the preset's again); loaded data (`loaded_too`
// false: Q, K, V) stays out of links, as at n = 2048 it would be megabytes.
template <std::vector<float> State::*M, bool loaded_too>
bool matrix_changed(const State& s, const State& base, bool) {
  return (loaded_too || s.source.empty()) && s.*M != base.*M;
}
// n for equal sizes that changed, nq and nk otherwise (and in the complete form).
bool n_alone(const State& s, const State& base, bool complete) {
  return !complete && s.nq == s.nk && (s.nq != base.nq || s.nk != base.nk);
}
// The mask's lists, also in the complete form when not empty (a preset's padding is part of
// what is computed).
template <auto F>
bool mask_changed(const State& s, const State& base, bool complete) {
  return s.*F != base.*F || (complete && !(s.*F).empty());
}

template <auto... F>
void keep(State& to, const State& from) {
  ((to.*F = from.*F), ...);
}

// The experiment views whose data a key changes, as bits by View.
using Views = unsigned;
template <class... V>
constexpr Views used_by(V... views) {
  return (0u | ... | (1u << unsigned(views)));
}

// One key of a link: the one place that says how it reads, how it writes, and what it changes.
// The table's order is the order links write the keys in. A new key is its State field, its
// row here, its line in docs/embed.md (tests/unit/docs_test.cpp) and its case in
// tests/unit/state_test.cpp (EveryKeyRoundTripsThroughALink).
struct Key {
  const char* name;
  // Reads a value into the state: "" or the note saying why it was ignored. nullptr: a key
  // parse_fragment reads itself (preset, task, vs), as it changes how the others read.
  std::string (*read)(State&, Reading&);
  std::string (*text)(const State&);  // the value as a link writes it
  bool (*write)(const State& s, const State& base, bool complete);  // whether a link writes it
  void (*keep)(State& to, const State& from);  // copies the fields the key sets
  bool computes;       // whether Lab computes again when it changes (its numbers, or what is made from them)
  Views views = 0;     // the experiment views whose data it changes
  std::vector<float> State::*matrix = nullptr;  // a typed matrix's field
};

using S = State;
using R = Reading;
const Key kKeys[] = {
    {"preset", nullptr, [](const S& s) { return s.preset; },
     [](const S& s, const S&, bool) { return find_preset(s.preset) != nullptr; }, keep<&S::preset>, false},
    {"attn", [](S& s, R& r) { return read_name(r, s.kind, N_("self or cross")); }, name_text<&S::kind>,
     changed<&S::kind>, keep<&S::kind>, true},
    {"n", [](S& s, R& r) { return read_size(r, &s.nq, &s.nk); }, whole_text<&S::nq>, n_alone, keep<&S::nq, &S::nk>, true,
     used_by(View::tiling)},
    {"nq", [](S& s, R& r) { return read_size(r, &s.nq, nullptr); }, whole_text<&S::nq>,
     [](const S& s, const S& base, bool all) { return !n_alone(s, base, all) && changed<&S::nq>(s, base, all); },
     keep<&S::nq>, true, used_by(View::heads)},
    {"nk", [](S& s, R& r) { return read_size(r, nullptr, &s.nk); }, whole_text<&S::nk>,
     [](const S& s, const S& base, bool all) { return !n_alone(s, base, all) && changed<&S::nk>(s, base, all); },
     keep<&S::nk>, true, used_by(View::heads)},
    {"dk",
     [](S& s, R& r) {
       return r.whole(1, Limits::max_scaling_dk, s.dk)
                  ? ""
                  : r.expected(N_("a dimension from 1 to %d (%d outside view=scaling)"), Limits::max_scaling_dk,
                               Limits::max_d);
     },
     whole_text<&S::dk>, changed<&S::dk>, keep<&S::dk>, true, used_by(View::scaling, View::heads)},
    {"proj", [](S& s, R& r) { return read_switch(r, s.project); }, name_text<&S::project>, changed<&S::project>,
     keep<&S::project>, true},
    {"dmodel", [](S& s, R& r) { return read_dimension(r, s.dmodel); }, whole_text<&S::dmodel>, changed<&S::dmodel>,
     keep<&S::dmodel>, true},
    {"dv", [](S& s, R& r) { return read_dimension(r, s.dv); }, whole_text<&S::dv>,
     [](const S& s, const S& base, bool all) { return all || (s.dv != base.dv && s.kind == Attention::cross); },
     keep<&S::dv>, true, used_by(View::heads)},
    {"seed",
     [](S& s, R& r) {
       long n = 0;
       if (!parse_int(r.value, 0, 0x7fffffffL, n)) return r.expected(N_("a whole number"));
       s.seed = std::uint32_t(n);
       return std::string();
     },
     whole_text<&S::seed>, changed<&S::seed>, keep<&S::seed>, true,
     used_by(View::scaling, View::gradients, View::pitfalls, View::stability, View::tiling, View::heads)},
    {"scale",
     [](S& s, R& r) {
       float custom = 0;
       if (parse_name(r.value, s.scale)) return std::string();
       if (!parse_float(r.value, custom) || std::fabs(custom) > Limits::max_custom_scale)
         return r.expected(N_("sqrt, none, dk or a number from -%g to %g"), double(Limits::max_custom_scale),
                           double(Limits::max_custom_scale));
       s.scale = attn::ScaleMode::custom;
       s.custom_scale = custom;
       return std::string();
     },
     [](const S& s) { return s.scale == attn::ScaleMode::custom ? text::shortest(s.custom_scale) : name_of(s.scale); },
     changed<&S::scale, &S::custom_scale>, keep<&S::scale, &S::custom_scale>, true},
    {"causal", [](S& s, R& r) { return read_name(r, s.causal, N_("0, 1 or br")); }, name_text<&S::causal>,
     changed<&S::causal>, keep<&S::causal>, true},
    {"pad",
     [](S& s, R& r) {
       auto length = [](std::string_view t, int& out) {
         long v = 0;
         if (!parse_int(t, 0, Limits::max_n, v)) return false;
         out = int(v);
         return true;
       };
       return parse_list(r.value, Limits::max_batch, s.pad, length)
                  ? ""
                  : r.expected(N_("up to %d sequence lengths separated by commas"), Limits::max_batch);
     },
     [](const S& s) { return list_text(s.pad, [](int v) { return std::to_string(v); }); }, mask_changed<&S::pad>,
     keep<&S::pad>, true},
    {"block",
     [](S& s, R& r) {
       auto cell = [](std::string_view t, std::pair<int, int>& out) {
         const auto parts = split(t, ':');
         long i = 0, j = 0;
         if (parts.size() != 2 || !parse_int(parts[0], 0, Limits::max_n - 1, i) ||
             !parse_int(parts[1], 0, Limits::max_n - 1, j))
           return false;
         out = {int(i), int(j)};
         return true;
       };
       return parse_list(r.value, std::size_t(Limits::max_n) * 4, s.blocked, cell)
                  ? ""
                  : r.expected(N_("query:key cells separated by commas"));
     },
     [](const S& s) {
       return list_text(s.blocked, [](const std::pair<int, int>& c) {
         return std::to_string(c.first) + ":" + std::to_string(c.second);
       });
     },
     [](const S& s, const S& base, bool all) { return mask_changed<&S::blocked>(s, base, all) && s.source.empty(); },
     keep<&S::blocked>, true},
    {"q", read_matrix<&S::q>, matrix_text<&S::q>, matrix_changed<&S::q, false>, keep<&S::q>, true, 0, &S::q},
    {"k", read_matrix<&S::k>, matrix_text<&S::k>, matrix_changed<&S::k, false>, keep<&S::k>, true, 0, &S::k},
    {"v", read_matrix<&S::v>, matrix_text<&S::v>, matrix_changed<&S::v, false>, keep<&S::v>, true, 0, &S::v},
    {"x", read_matrix<&S::x>, matrix_text<&S::x>, matrix_changed<&S::x, true>, keep<&S::x>, true, 0, &S::x},
    {"wq", read_matrix<&S::wq>, matrix_text<&S::wq>, matrix_changed<&S::wq, true>, keep<&S::wq>, true, 0, &S::wq},
    {"wk", read_matrix<&S::wk>, matrix_text<&S::wk>, matrix_changed<&S::wk, true>, keep<&S::wk>, true, 0, &S::wk},
    {"wv", read_matrix<&S::wv>, matrix_text<&S::wv>, matrix_changed<&S::wv, true>, keep<&S::wv>, true, 0, &S::wv},
    {"step", [](S& s, R& r) { return read_name(r, s.step, N_("input, scores, scale, mask, softmax or output")); },
     name_text<&S::step>, changed<&S::step>, keep<&S::step>, false},
    {"query", [](S& s, R& r) { return read_row(r, s.query); }, whole_text<&S::query>, changed<&S::query>,
     keep<&S::query>, false},
    {"batch", [](S& s, R& r) { return read_row(r, s.batch); }, whole_text<&S::batch>, changed<&S::batch>,
     keep<&S::batch>, false},
    // The shown head of loaded data, for the page API only: a link does not keep the data.
    {"head",
     [](S& s, R& r) {
       const int count = loaded_head_count(s);
       int head = 0;
       if (count < 2) return r.expected(N_("loaded data with several heads"));
       if (!r.whole(0, count - 1, head)) return r.expected(N_("a head from 0 to %d"), count - 1);
       show_head(s, head);
       return std::string();
     },
     whole_text<&S::head>, [](const S& s, const S&, bool all) { return all && loaded_head_count(s) > 1; },
     keep<&S::head>, true},
    {"view", [](S& s, R& r) { return parse_name(r.value, s.view) ? "" : r.expected_text(names_text<View>()); },
     name_text<&S::view>, changed<&S::view>, keep<&S::view>, false},
    {"theme", [](S& s, R& r) { return read_name(r, s.theme, N_("light, dark or auto")); }, name_text<&S::theme>,
     changed<&S::theme>, keep<&S::theme>, false},
    // The language and the mode count as computing: what the screen derives from a computation
    // (the screen reader's table of the shown step, practice's question) is made again with it.
    {"lang", [](S& s, R& r) { return read_name(r, s.lang, N_("en, es or auto")); }, name_text<&S::lang>,
     changed<&S::lang>, keep<&S::lang>, true},
    {"ui", [](S& s, R& r) { return read_name(r, s.density, N_("full or compact")); }, name_text<&S::density>,
     changed<&S::density>, keep<&S::density>, false},
    {"mode", [](S& s, R& r) { return read_name(r, s.mode, N_("explore or practice")); }, name_text<&S::mode>,
     changed<&S::mode>, keep<&S::mode>, true},
    // The kinds of question practice asks, in turn (a lesson's check asks about its chapter).
    {"ask",
     [](S& s, R& r) {
       const auto kind = [](std::string_view t, practice::QuestionKind& out) { return parse_name(t, out); };
       return parse_list(r.value, count_of<practice::QuestionKind>(), s.ask, kind)
                  ? ""
                  : r.expected(N_("up to %d kinds of question separated by commas: %s"),
                               int(count_of<practice::QuestionKind>()), names_text<practice::QuestionKind>().c_str());
     },
     [](const S& s) { return list_text(s.ask, [](practice::QuestionKind k) { return std::string(name_of(k)); }); },
     changed<&S::ask>, keep<&S::ask>, false},
    // The parts' names are checked against the final view's (fit_figure), once it is known.
    {"figure",
     [](S& s, R& r) {
       return parse_list(r.value, kMaxFigureParts, s.figure, [](std::string_view t, std::string& out) {
                out = std::string(t);
                return t.size() <= kMaxFigurePartName;
              })
                  ? ""
                  : r.expected(N_("at most %d part names separated by commas"), int(kMaxFigureParts));
     },
     [](const S& s) { return list_text(s.figure, [](const std::string& p) { return p; }); }, changed<&S::figure>,
     keep<&S::figure>, false},
    {"mult",
     [](S& s, R& r) {
       float mult = 0;
       if (!parse_float(r.value, mult) || !(mult > 0))
         return r.expected(N_("a scale multiplier above 0, at most %g"), double(Limits::max_mult));
       r.out_of_range = mult > Limits::max_mult;
       s.mult = std::min(mult, Limits::max_mult);
       return std::string();
     },
     [](const S& s) { return text::shortest(s.mult); }, changed<&S::mult>, keep<&S::mult>, false, used_by(View::gradients)},
    {"row", [](S& s, R& r) { return read_row(r, s.row); }, whole_text<&S::row>, changed<&S::row>, keep<&S::row>, false,
     used_by(View::gradients)},
    {"pitfall",
     [](S& s, R& r) {
       return read_name(r, s.pitfall,
                        N_("no_scaling, divide_by_dk, fill_minus_one, fill_zero, no_causal_mask or fully_masked_row"));
     },
     name_text<&S::pitfall>, changed<&S::pitfall>, keep<&S::pitfall>, false},
    {"tile",
     [](S& s, R& r) {
       return r.whole(1, Limits::max_tile, s.tile) ? "" : r.expected(N_("keys per tile, from 1 to %d"), Limits::max_tile);
     },
     whole_text<&S::tile>, changed<&S::tile>, keep<&S::tile>, false, used_by(View::tiling)},
    {"heads", [](S& s, R& r) { return read_heads(r, s.heads); }, whole_text<&S::heads>, changed<&S::heads>,
     keep<&S::heads>, false, used_by(View::heads)},
    {"kvheads", [](S& s, R& r) { return read_heads(r, s.kv_heads); }, whole_text<&S::kv_heads>, changed<&S::kv_heads>,
     keep<&S::kv_heads>, false, used_by(View::heads)},
    {"run", [](S& s, R& r) { return read_switch(r, s.run); }, name_text<&S::run>, changed<&S::run>, keep<&S::run>,
     false, used_by(View::cost)},
    // view=train's task; the model's settings (kTrainKeys) are written after it.
    {"task", nullptr, [](const S& s) { return std::string(train::task_name(s.train.task)); },
     [](const S& s, const S&, bool all) {
       return (all && s.view == View::train) || s.train.task != train::Task::reverse;
     },
     keep<&S::train>, false},
    {"play", [](S& s, R& r) { return read_switch(r, s.play); }, name_text<&S::play>, run_changed<&S::play>,
     keep<&S::play>, false},
    {"spf",
     [](S& s, R& r) {
       return r.whole(1, TrainLimits::max_steps_per_frame, s.steps_per_frame)
                  ? ""
                  : r.expected(N_("steps per frame from 1 to %d"), TrainLimits::max_steps_per_frame);
     },
     whole_text<&S::steps_per_frame>, run_changed<&S::steps_per_frame>, keep<&S::steps_per_frame>, false},
    {"vs", nullptr, [](const S& s) { return s.vs; }, run_changed<&S::vs>, keep<&S::vs>, false},
};

const Key* find_key(std::string_view name) {
  for (const Key& k : kKeys)
    if (name == k.name) return &k;
  return nullptr;
}

}  // namespace

std::vector<std::string> state_keys() {
  std::vector<std::string> keys;
  for (const Key& k : kKeys) keys.push_back(k.name);
  for (const TrainKey& k : kTrainKeys) keys.push_back(k.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string train_setting(const train::Config& c, std::string_view key) {
  const TrainKey* k = find_train_key(key);
  return k ? k->text(c) : "";
}

State computed_part(State s) {
  const State plain;
  for (const Key& k : kKeys)
    if (!k.computes) k.keep(s, plain);
  return s;
}

std::string experiment_parameters(const State& s) {
  std::string text = name_of(s.view);
  for (const Key& k : kKeys)
    if (k.views & used_by(s.view)) text += "&" + std::string(k.name) + "=" + k.text(s);
  return text;
}

namespace {

// [SECTION] parse_fragment ---------------------------------------------------------------

// Applies one key; returns an empty string or the note that says why it was ignored. A number
// outside its key's range is not ignored: the nearest end of the range is used and
// `out_of_range` set, so the view keeps its controls and the caller says what was changed.
std::string apply(State& s, const std::string& key, const std::string& value, bool& out_of_range) {
  const Key* k = find_key(key);
  if (!k || !k->read) return i18n::format(tr("ignored unknown key \"%s\""), key.c_str());
  Reading r{key, value};
  const std::string note = k->read(s, r);
  out_of_range = r.out_of_range;
  return note;
}

// A value of a link that the state could not hold as given, and what the note says of it; the
// value used instead is the final state's (`used`, or the key's value as a link writes it).
struct Changed {
  std::string key, given, why, used;
};

std::string used_value(const State& s, const std::string& key) {
  const Key* k = find_key(key);
  return k ? k->text(s) : "";
}

// An experiment view's parameters that are each in range but not together: the nearest valid
// combination, each change recorded. `given(key)`: whether the link set the key.
template <class Given>
void fit_view(State& s, const Given& given, std::vector<Changed>& changed) {
  if (s.view == View::tiling) {
    if (s.nq > Limits::max_tiling_n) {
      changed.push_back({given("nq") ? "nq" : "n", std::to_string(s.nq), tr("is more than the tiling view walks"), ""});
      s.nq = Limits::max_tiling_n;
      if (s.kind == Attention::self) s.nk = s.nq;
    }
    // A tile longer than the sequence is the whole sequence; only a link's own tile is noted.
    if (given("tile") && s.tile > s.nq) {
      changed.push_back({"tile", std::to_string(s.tile), i18n::format(tr("is more than n=%d"), s.nq), ""});
      s.tile = s.nq;
    }
  } else if (s.view == View::gradients && s.row >= experiments::kGradientsN) {
    changed.push_back({"row", std::to_string(s.row), tr("is past the view's last query"), ""});
    s.row = experiments::kGradientsN - 1;
  } else if (s.view == View::heads) {
    // Sizes the view shows (self-attention ties n_k and d_v to n_q and d_k).
    const bool cross = s.kind == Attention::cross;
    for (auto [key, size] : {std::pair{given("nq") ? "nq" : "n", &s.nq}, {"nk", cross ? &s.nk : nullptr},
                             {"dk", &s.dk}, {"dv", cross ? &s.dv : nullptr}})
      if (size && *size > experiments::kHeadsMaxSize) {
        changed.push_back({key, std::to_string(*size), tr("is more than the heads view shows"), ""});
        *size = experiments::kHeadsMaxSize;
      }
    // Each K/V head serves heads / kv_heads query heads, so kv_heads must divide heads: the
    // nearest count that does, from below.
    int kv = std::min(s.kv_heads, s.heads);
    while (s.heads % kv != 0) --kv;
    if (kv != s.kv_heads) {
      changed.push_back({"kvheads", std::to_string(s.kv_heads), i18n::format(tr("does not divide heads=%d"), s.heads), ""});
      s.kv_heads = kv;
    }
  }
}

// A figure's parts that the final view has, each once and in the link's order; the others
// (a misspelling, another view's part) are ignored with one note naming them and the view's.
// Empty names (a trailing comma) are skipped.
void fit_figure(State& s, std::vector<std::string>& notes) {
  std::vector<std::string> kept;
  std::string ignored;
  for (const std::string& part : s.figure) {
    if (part.empty() || std::find(kept.begin(), kept.end(), part) != kept.end()) continue;
    if (is_figure_part(s.view, part)) kept.push_back(part);
    else ignored += (ignored.empty() ? "" : ",") + part;
  }
  if (!ignored.empty())
    notes.push_back(i18n::format(tr("ignored figure=%s: view=%s has no such part (its parts are %s)"), ignored.c_str(),
                                 name_of(s.view), figure_part_names(s.view, tr("or")).c_str()));
  s.figure = std::move(kept);
}

// The model setting at the valid whole number nearest to `value`, when `value` is a whole
// number the key reads but the model it makes is invalid. validate() alone states the limits:
// with the other settings fixed it accepts an interval, whose edge between the current setting
// (valid) and `value` is found by bisection.
bool nearest_valid(const train::Config& c, const TrainKey& key, const std::string& value, train::Config& out) {
  train::Config probe = c;
  long from = 0, to = 0;
  // Only whole-number settings (which refuse 0.5): a real one's open bounds (lr > 0) have no
  // nearest value.
  if (!*key.set(probe, "0.5") || *key.set(probe, value) || !parse_int(key.text(c), -0x7fffffffL, 0x7fffffffL, from) ||
      !parse_int(value, -0x7fffffffL, 0x7fffffffL, to))
    return false;
  while (to - from > 1 || from - to > 1) {
    const long mid = from + (to - from) / 2;
    (set_train(c, key, std::to_string(mid), probe).empty() ? from : to) = mid;
  }
  return set_train(c, key, std::to_string(from), out).empty();
}

}  // namespace

ParseResult parse_fragment(std::string_view fragment, const State& base, bool live) {
  ParseResult result{base, {}};
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::string_view item : split(fragment, '&')) {
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      result.notes.push_back(i18n::format(tr("ignored \"%s\": expected key=value"), percent_decode(item).c_str()));
      continue;
    }
    pairs.emplace_back(percent_decode(item.substr(0, eq)), percent_decode(item.substr(eq + 1)));
  }
  // The preset is the base, wherever it appears in the fragment.
  for (const auto& [key, value] : pairs) {
    if (key != "preset") continue;
    if (const Preset* p = find_preset(value)) {
      result.state = preset_for(*p, base);
    } else {
      result.notes.push_back(i18n::format(tr("ignored preset=%s: no such preset"), value.c_str()));
    }
  }
  // The view decides what the keys both the walkthrough and view=train read (dk, heads, …)
  // mean; the task is view=train's preset: its defaults are the base of the model's keys.
  View view = result.state.view;
  for (const auto& [key, value] : pairs) {
    if (key == "view") parse_name(value, view);
    if (key != "task") continue;
    train::Task task;
    if (train::parse_task(value, task)) result.state.train = train::defaults(task);
    else result.notes.push_back(i18n::format(tr("ignored %s=%s: expected %s"), "task", value.c_str(), train::task_names(tr("or")).c_str()));
  }
  State preset_base = result.state;
  std::vector<std::pair<const TrainKey*, const std::string*>> model_keys;
  const std::string* vs = nullptr;
  std::vector<Changed> changed;
  std::vector<std::string> applied;  // the keys whose values were used
  for (const auto& [key, value] : pairs) {
    if (key == "preset" || key == "task") continue;
    const TrainKey* train_key = find_train_key(key);
    if (train_key && (view == View::train || !train_key->shared)) {
      model_keys.emplace_back(train_key, &value);
      continue;
    }
    if (key == "vs") {
      vs = &value;
      continue;
    }
    const State before = result.state;
    bool out_of_range = false;
    const std::string note = apply(result.state, key, value, out_of_range);
    if (!note.empty()) {
      result.state = before;
      result.notes.push_back(note);
    } else {
      applied.push_back(key);
      if (out_of_range) changed.push_back({key, value, tr("is out of range"), ""});
    }
  }
  // One model setting may need another (sort's vocab ≥ seq): each applies once the model it
  // makes is valid, in rounds until none more does; the rest are ignored with the reason.
  for (bool progress = true; progress;) {
    progress = false;
    for (auto it = model_keys.begin(); it != model_keys.end();) {
      train::Config c;
      if (set_train(result.state.train, *it->first, *it->second, c).empty()) {
        result.state.train = c;
        it = model_keys.erase(it);
        progress = true;
      } else {
        ++it;
      }
    }
  }
  for (const auto& [key, value] : model_keys) {
    train::Config c;
    const std::string problem = set_train(result.state.train, *key, *value, c);
    if (nearest_valid(result.state.train, *key, *value, c)) {
      result.state.train = c;
      changed.push_back({key->key, *value, i18n::format(tr("is out of range (%s)"), problem.c_str()), key->text(c)});
    } else {
      result.notes.push_back(i18n::format(tr("ignored %s=%s: %s"), key->key, value->c_str(), problem.c_str()));
    }
  }
  // The compared setting applies to the final model.
  if (vs) {
    State with = result.state;
    with.vs = *vs;
    train::Config c;
    const std::string problem = vs->empty() ? "" : compare_config(with, c);
    if (problem.empty()) result.state.vs = *vs;
    else result.notes.push_back(i18n::format(tr("ignored vs=%s: %s"), vs->c_str(), problem.c_str()));
  }
  // Links from before the projections type Q = K = V as q in self-attention: a typed q
  // without a proj key still means that.
  const auto has = [&](const char* key) {
    return std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == key; });
  };
  if (has("q") && !has("proj") && result.state.kind == Attention::self) result.state.project = false;
  fit_view(result.state, [&](const char* key) { return std::count(applied.begin(), applied.end(), key) > 0; },
           changed);
  fit_figure(result.state, result.notes);
  // A typed matrix must fit the final shape; otherwise the base's matrix stays.
  for (const auto& [key, value] : pairs) {
    const Key* typed = find_key(key);
    if (!typed || !typed->matrix) continue;
    State check = result.state;
    normalize(check);
    if ((check.*typed->matrix).size() != (result.state.*typed->matrix).size()) {
      typed->keep(result.state, preset_base);
      const bool projection = key == "x" || key[0] == 'w';
      const char* why = key == "q" && check.projected() ? tr("with proj=1, Q is X·W_Q (type x and wq, or set proj=0)")
                        : projection && !check.projected() ? tr("X and W are used only in self-attention with proj=1")
                                                           : tr("its size does not match the shape");
      result.notes.push_back(i18n::format(tr("ignored %s: %s"), key.c_str(), why));
    }
  }
  if (result.state.view != View::scaling && result.state.dk > Limits::max_d)
    changed.push_back({"dk", std::to_string(result.state.dk), tr("is only for view=scaling"), ""});
  const std::size_t sequences = result.state.pad.size();
  if (live) normalize(result.state, base);
  else normalize(result.state);
  if (result.state.pad.size() < sequences)
    result.notes.push_back(i18n::format(
        tr("pad gives %d sequences of %d × %d scores, more than the walkthrough keeps (%llu scores across the batch), "
           "so the first %d are used"),
        int(sequences), result.state.nq, result.state.nk, static_cast<unsigned long long>(Limits::max_batch_scores),
        int(result.state.pad.size())));
  // One note per key, naming the value the link gave (not an intermediate one) and the value
  // now used.
  for (auto c = changed.begin(); c != changed.end(); ++c) {
    if (std::any_of(changed.begin(), c, [&](const Changed& earlier) { return earlier.key == c->key; })) continue;
    const std::string used = c->used.empty() ? used_value(result.state, c->key) : c->used;
    result.notes.push_back(i18n::format(tr("%s=%s %s, so %s=%s is used"), c->key.c_str(), c->given.c_str(), c->why.c_str(),
                                        c->key.c_str(), used.c_str()));
  }
  return result;
}

// [SECTION] to_fragment ------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> state_pairs(const State& s, bool complete) {
  const Preset* p = find_preset(s.preset);
  const State base = p ? p->state : State{};
  const bool train = s.view == View::train;
  std::vector<std::pair<std::string, std::string>> out;
  for (const Key& key : kKeys) {
    // In view=train the keys the walkthrough shares with the model are the model's.
    const TrainKey* model = find_train_key(key.name);
    if (!(train && model && model->shared) && key.write(s, base, complete)) out.emplace_back(key.name, key.text(s));
    if (key.name != std::string_view("task")) continue;
    // The model's settings that differ from its task's defaults, in any view (a link may set
    // them before switching to view=train); the keys it shares with the walkthrough (dk, heads,
    // …) are the model's only in view=train.
    const train::Config defaults = train::defaults(s.train.task);
    for (const TrainKey& k : kTrainKeys)
      if ((train || !k.shared) && ((complete && train) || k.text(s.train) != k.text(defaults)))
        out.emplace_back(k.key, k.text(s.train));
  }
  return out;
}

std::string to_fragment(const State& s, bool complete) {
  std::string out;
  for (const auto& [key, value] : state_pairs(s, complete)) out += (out.empty() ? "" : "&") + key + "=" + value;
  return out;
}

}  // namespace lab
