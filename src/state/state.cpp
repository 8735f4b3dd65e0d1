// [SECTION] names and comparison, [SECTION] normalize, [SECTION] number text,
// [SECTION] view=train's keys, [SECTION] parse_fragment, [SECTION] to_fragment.
#include "state.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <tuple>

#include "gradients.h"  // the views' limits: experiments::kGradientsN, kHeadsMaxSize
#include "heads.h"
#include "typed.h"  // normalize(state, before): a live change keeps typed values

namespace lab {

// [SECTION] names and comparison --------------------------------------------------------

namespace {
// The link's names, which the stepper shows (translated: they are messages too).
constexpr const char* kStepNames[kStepCount] = {N_("input"), N_("scores"), N_("scale"), N_("mask"), N_("softmax"),
                                                N_("output")};

auto tie(const State& s) {
  return std::tie(s.preset, s.step, s.query, s.batch, s.view, s.kind, s.nq, s.nk, s.dk, s.dv,
                  s.seed, s.scale, s.custom_scale, s.causal, s.pad, s.blocked, s.q, s.k, s.v, s.source, s.query_tokens,
                  s.key_tokens, s.loaded_heads, s.head, s.project,
                  s.dmodel, s.x, s.wq, s.wk, s.wv,
                  s.theme, s.lang, s.ui, s.mode, s.mult, s.row, s.pitfall, s.tile, s.heads, s.kv_heads, s.run, s.train, s.play,
                  s.steps_per_frame, s.vs);
}
}  // namespace

const char* step_name(Step step) { return kStepNames[int(step)]; }

bool State::operator==(const State& o) const { return tie(*this) == tie(o); }

bool is_experiment_view(std::string_view view) {
  // Every view after the walkthrough's two.
  return std::any_of(std::begin(kViews) + 2, std::end(kViews), [&](const ViewName& v) { return view == v.name; });
}

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
  if (s.view != "scaling") s.dk = std::min(s.dk, Limits::max_d);
  if (s.kind == Kind::self) {
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
  if (s.kind != Kind::cross || s.q.empty() || s.k.empty() || s.v.empty()) {
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

// The shortest decimal text that reads back as the same float, so links stay exact and short.
std::string float_text(float x) {
  char buf[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(x));
    if (std::strtof(buf, nullptr) == x) break;
  }
  return buf;
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

template <class E, std::size_t N>
bool parse_name(std::string_view text, const char* const (&names)[N], E& out) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) {
      out = E(i);
      return true;
    }
  return false;
}

constexpr const char* kKindNames[] = {"self", "cross"};
constexpr const char* kCausalNames[] = {"0", "1", "br"};
constexpr const char* kScaleNames[] = {"sqrt", "none", "dk"};  // custom: a number
constexpr const char* kThemes[] = {"light", "dark", "auto"};  // auto: the reader's system setting
constexpr const char* kLangs[] = {"en", "es", "auto"};  // auto: the reader's system language
constexpr const char* kUis[] = {"full", "compact"};
constexpr const char* kModes[] = {"explore", "practice"};

const std::size_t kMaxMatrix = std::size_t(Limits::max_batch) * Limits::max_n * Limits::max_d;

// The typed matrices of a link, by key.
constexpr const char* kMatrixKeys[] = {"q", "k", "v", "x", "wq", "wk", "wv"};
bool is_matrix_key(std::string_view key) {
  return std::any_of(std::begin(kMatrixKeys), std::end(kMatrixKeys), [&](const char* k) { return key == k; });
}
// The other keys apply() reads. apply() refuses a key missing here, so this list, with the
// matrices and what parse_fragment reads itself, is every key a link may carry (state_keys()).
constexpr const char* kApplyKeys[] = {"step", "query", "batch", "n", "nq", "nk", "dk", "dmodel", "proj", "dv",
                                      "mult", "row", "pitfall", "tile", "heads", "kvheads", "seed", "scale",
                                      "causal", "attn", "play", "run", "spf", "view", "theme", "ui", "lang",
                                      "mode", "pad", "block", "head"};
bool is_apply_key(std::string_view key) {
  return is_matrix_key(key) ||
         std::any_of(std::begin(kApplyKeys), std::end(kApplyKeys), [&](const char* k) { return key == k; });
}
std::vector<float>& matrix(State& s, std::string_view key) {
  std::vector<float>* all[] = {&s.q, &s.k, &s.v, &s.x, &s.wq, &s.wk, &s.wv};
  for (std::size_t i = 0; i < std::size(kMatrixKeys); ++i)
    if (key == kMatrixKeys[i]) return *all[i];
  return s.q;
}

bool parse_view(std::string_view text) {
  return std::any_of(std::begin(kViews), std::end(kViews), [&](const ViewName& v) { return text == v.name; });
}

// "walkthrough, compare, … or train", from the one list of views.
std::string view_names() {
  std::string text;
  for (const ViewName& v : kViews) text += (text.empty() ? "" : &v == std::end(kViews) - 1 ? " or " : ", ") + std::string(v.name);
  return text;
}

// [SECTION] view=train's keys -------------------------------------------------------------

const char* set_whole(int& field, const std::string& value) {
  long n = 0;
  if (!parse_int(value, 0, 0x7fffffffL, n)) return N_("a whole number");
  field = int(n);
  return "";
}

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
    {"causal", true, [](const C& c) { return std::string(c.causal ? "1" : "0"); },
     [](C& c, V v) {
       if (v != "0" && v != "1") return N_("0 or 1");
       c.causal = v == "1";
       return "";
     }},
    {"scale", true, [](const C& c) { return std::string(kScaleNames[int(c.scale)]); },
     [](C& c, V v) { return parse_name(v, kScaleNames, c.scale) ? "" : N_("sqrt, none or dk"); }},
    {"pos", false, [](const C& c) { return std::string(train::kPositionNames[int(c.positions)]); },
     [](C& c, V v) { return parse_name(v, train::kPositionNames, c.positions) ? "" : N_("learned or sinusoidal"); }},
    {"init", false, [](const C& c) { return float_text(c.init_std); }, [](C& c, V v) { return set_number(c.init_std, v); }},
    {"pinit", false, [](const C& c) { return float_text(c.proj_std); }, [](C& c, V v) { return set_number(c.proj_std, v); }},
    {"lr", false, [](const C& c) { return float_text(c.lr); }, [](C& c, V v) { return set_number(c.lr, v); }},
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

std::vector<std::string> state_keys() {
  std::vector<std::string> keys{"preset", "task", "vs"};  // read by parse_fragment itself
  keys.insert(keys.end(), std::begin(kApplyKeys), std::end(kApplyKeys));
  keys.insert(keys.end(), std::begin(kMatrixKeys), std::end(kMatrixKeys));
  for (const TrainKey& k : kTrainKeys) keys.push_back(k.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string train_setting(const train::Config& c, std::string_view key) {
  const TrainKey* k = find_train_key(key);
  return k ? k->text(c) : "";
}

namespace {

// [SECTION] parse_fragment ---------------------------------------------------------------

// Applies one key; returns an empty string or the note that says why it was ignored. A number
// outside its key's range is not ignored: the nearest end of the range is used and
// `out_of_range` set, so the view keeps its controls and the caller says what was changed.
std::string apply(State& s, const std::string& key, const std::string& value, bool& out_of_range) {
  const auto unknown = [&] { return i18n::format(tr("ignored unknown key \"%s\""), key.c_str()); };
  if (!is_apply_key(key)) return unknown();
  // What was expected, as text (bad_text), or as a message translated here with the limits it
  // names (bad: from Limits, so the text cannot drift from the check).
  auto bad_text = [&](const std::string& expected) {
    return i18n::format(tr("ignored %s=%s: expected %s"), key.c_str(), value.c_str(), expected.c_str());
  };
  auto bad = [&](const char* expected, auto... limits) {
    if constexpr (sizeof...(limits) == 0) return bad_text(tr(expected));
    else return bad_text(i18n::format(tr(expected), limits...));
  };
  long n = 0;
  auto whole = [&](long lo, long hi) {
    if (!parse_int(value, -0x7fffffffL, 0x7fffffffL, n)) return false;
    out_of_range = n < lo || n > hi;
    n = std::clamp(n, lo, hi);
    return true;
  };
  if (key == "step") {
    if (!parse_name(value, kStepNames, s.step))
      return bad(N_("input, scores, scale, mask, softmax or output"));
  } else if (key == "query" || key == "batch") {
    if (!whole(0, Limits::max_n - 1)) return bad(N_("a row index"));
    (key == "query" ? s.query : s.batch) = int(n);
  } else if (key == "head") {
    if (loaded_head_count(s) < 2) return bad(N_("loaded data with several heads"));
    if (!whole(0, loaded_head_count(s) - 1)) return bad(N_("a head from 0 to %d"), loaded_head_count(s) - 1);
    show_head(s, int(n));
  } else if (key == "n" || key == "nq" || key == "nk") {
    if (!whole(1, Limits::max_n)) return bad(N_("a size from 1 to %d"), Limits::max_n);
    if (key != "nk") s.nq = int(n);
    if (key != "nq") s.nk = int(n);
  } else if (key == "dk") {
    if (!whole(1, Limits::max_scaling_dk)) return bad(N_("a dimension from 1 to %d (%d outside view=scaling)"), Limits::max_scaling_dk,
                                                  Limits::max_d);
    s.dk = int(n);
  } else if (key == "dmodel") {
    if (!whole(1, Limits::max_d)) return bad(N_("a dimension from 1 to %d"), Limits::max_d);
    s.dmodel = int(n);
  } else if (key == "proj") {
    if (value != "0" && value != "1") return bad(N_("0 or 1"));
    s.project = value == "1";
  } else if (key == "dv") {
    if (!whole(1, Limits::max_d)) return bad(N_("a dimension from 1 to %d"), Limits::max_d);
    s.dv = int(n);
  } else if (key == "mult") {
    float mult = 0;
    if (!parse_float(value, mult) || !(mult > 0))
      return bad(N_("a scale multiplier above 0, at most %g"), double(Limits::max_mult));
    out_of_range = mult > Limits::max_mult;
    s.mult = std::min(mult, Limits::max_mult);
  } else if (key == "row") {
    if (!whole(0, Limits::max_n - 1)) return bad(N_("a row index"));
    s.row = int(n);
  } else if (key == "pitfall") {
    std::size_t which = 0;
    if (!parse_name(value, kPitfalls, which))
      return bad(N_("no_scaling, divide_by_dk, fill_minus_one, fill_zero, no_causal_mask or fully_masked_row"));
    s.pitfall = value;
  } else if (key == "tile") {
    if (!whole(1, Limits::max_tile)) return bad(N_("keys per tile, from 1 to %d"), Limits::max_tile);
    s.tile = int(n);
  } else if (key == "heads" || key == "kvheads") {
    if (!whole(1, Limits::max_heads)) return bad(N_("a number of heads from 1 to %d"), Limits::max_heads);
    (key == "heads" ? s.heads : s.kv_heads) = int(n);
  } else if (key == "seed") {
    if (!parse_int(value, 0, 0x7fffffffL, n)) return bad(N_("a whole number"));
    s.seed = std::uint32_t(n);
  } else if (key == "scale") {
    float custom = 0;
    if (parse_name(value, kScaleNames, s.scale)) return "";
    if (!parse_float(value, custom) || std::fabs(custom) > Limits::max_custom_scale)
      return bad(N_("sqrt, none, dk or a number from -%g to %g"), double(Limits::max_custom_scale),
                 double(Limits::max_custom_scale));
    s.scale = attn::ScaleMode::custom;
    s.custom_scale = custom;
  } else if (key == "causal") {
    if (!parse_name(value, kCausalNames, s.causal)) return bad(N_("0, 1 or br"));
  } else if (key == "attn") {
    if (!parse_name(value, kKindNames, s.kind)) return bad(N_("self or cross"));
  } else if (key == "play") {
    if (value != "0" && value != "1") return bad(N_("0 or 1"));
    s.play = value == "1";
  } else if (key == "run") {
    if (value != "0" && value != "1") return bad(N_("0 or 1"));
    s.run = value == "1";
  } else if (key == "spf") {
    if (!whole(1, TrainLimits::max_steps_per_frame))
      return bad(N_("steps per frame from 1 to %d"), TrainLimits::max_steps_per_frame);
    s.steps_per_frame = int(n);
  } else if (key == "view" || key == "theme" || key == "ui") {
    std::size_t which = 0;
    const bool ok = key == "view" ? parse_view(value)
                    : key == "theme" ? parse_name(value, kThemes, which)
                                     : parse_name(value, kUis, which);
    if (!ok) return key == "view" ? bad_text(view_names()) : bad(key == "theme" ? N_("light, dark or auto") : N_("full or compact"));
    (key == "view" ? s.view : key == "theme" ? s.theme : s.ui) = value;
  } else if (key == "lang") {
    std::size_t which = 0;
    if (!parse_name(value, kLangs, which)) return bad(N_("en, es or auto"));
    s.lang = value;
  } else if (key == "mode") {
    std::size_t which = 0;
    if (!parse_name(value, kModes, which)) return bad(N_("explore or practice"));
    s.mode = value;
  } else if (key == "pad") {
    auto length = [](std::string_view t, int& out) {
      long v = 0;
      if (!parse_int(t, 0, Limits::max_n, v)) return false;
      out = int(v);
      return true;
    };
    if (!parse_list(value, Limits::max_batch, s.pad, length))
      return bad(N_("up to %d sequence lengths separated by commas"), Limits::max_batch);
  } else if (key == "block") {
    auto cell = [](std::string_view t, std::pair<int, int>& out) {
      const auto parts = split(t, ':');
      long i = 0, j = 0;
      if (parts.size() != 2 || !parse_int(parts[0], 0, Limits::max_n - 1, i) ||
          !parse_int(parts[1], 0, Limits::max_n - 1, j))
        return false;
      out = {int(i), int(j)};
      return true;
    };
    if (!parse_list(value, std::size_t(Limits::max_n) * 4, s.blocked, cell))
      return bad(N_("query:key cells separated by commas"));
  } else if (is_matrix_key(key)) {
    std::vector<float>& m = matrix(s, key);
    const auto entry = [](std::string_view t, float& out) {
      return parse_float(t, out) && std::fabs(out) <= Limits::max_value;
    };
    if (!parse_list(value, kMaxMatrix, m, entry))
      return bad(N_("numbers from -%g to %g separated by commas"), double(Limits::max_value), double(Limits::max_value));
  } else {
    return unknown();
  }
  return "";
}

// A value of a link that the state could not hold as given, and what the note says of it; the
// value used instead is the final state's (`used`, or the key's value in its complete link).
struct Changed {
  std::string key, given, why, used;
};

std::string used_value(const State& s, const std::string& key) {
  const std::string wanted = (key == "n" ? "nq" : key) + "=";
  const std::string link = to_fragment(s, true);  // split() returns views into it
  for (std::string_view item : split(link, '&'))
    if (item.substr(0, wanted.size()) == wanted) return std::string(item.substr(wanted.size()));
  return "";
}

// An experiment view's parameters that are each in range but not together: the nearest valid
// combination, each change recorded. `given(key)`: whether the link set the key.
template <class Given>
void fit_view(State& s, const Given& given, std::vector<Changed>& changed) {
  if (s.view == "tiling") {
    if (s.nq > Limits::max_tiling_n) {
      changed.push_back({given("nq") ? "nq" : "n", std::to_string(s.nq), tr("is more than the tiling view walks"), ""});
      s.nq = Limits::max_tiling_n;
      if (s.kind == Kind::self) s.nk = s.nq;
    }
    // A tile longer than the sequence is the whole sequence; only a link's own tile is noted.
    if (given("tile") && s.tile > s.nq) {
      changed.push_back({"tile", std::to_string(s.tile), i18n::format(tr("is more than n=%d"), s.nq), ""});
      s.tile = s.nq;
    }
  } else if (s.view == "gradients" && s.row >= experiments::kGradientsN) {
    changed.push_back({"row", std::to_string(s.row), tr("is past the view's last query"), ""});
    s.row = experiments::kGradientsN - 1;
  } else if (s.view == "heads") {
    // Sizes the view shows (self-attention ties n_k and d_v to n_q and d_k).
    const bool cross = s.kind == Kind::cross;
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
      changed.push_back({"kvheads", std::to_string(s.kv_heads), "does not divide heads=" + std::to_string(s.heads), ""});
      s.kv_heads = kv;
    }
  }
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
      result.state = p->state;
      result.state.theme = base.theme;  // a preset is content; the theme and language stay the reader's
      result.state.lang = base.lang;
      result.state.ui = base.ui;
      result.state.mode = base.mode;
    } else {
      result.notes.push_back(i18n::format(tr("ignored preset=%s: no such preset"), value.c_str()));
    }
  }
  // The view decides what the keys both the walkthrough and view=train read (dk, heads, …)
  // mean; the task is view=train's preset: its defaults are the base of the model's keys.
  std::string view = result.state.view;
  for (const auto& [key, value] : pairs) {
    if (key == "view" && parse_view(value)) view = value;
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
    if (train_key && (view == "train" || !train_key->shared)) {
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
  if (has("q") && !has("proj") && result.state.kind == Kind::self) result.state.project = false;
  fit_view(result.state, [&](const char* key) { return std::count(applied.begin(), applied.end(), key) > 0; },
           changed);
  // A typed matrix must fit the final shape; otherwise the base's matrix stays.
  for (const auto& [key, value] : pairs) {
    if (!is_matrix_key(key)) continue;
    State check = result.state;
    normalize(check);
    if (matrix(check, key).size() != matrix(result.state, key).size()) {
      matrix(result.state, key) = matrix(preset_base, key);
      const bool projection = key == "x" || key[0] == 'w';
      const char* why = key == "q" && check.projected() ? tr("with proj=1, Q is X·W_Q (type x and wq, or set proj=0)")
                        : projection && !check.projected() ? tr("X and W are used only in self-attention with proj=1")
                                                           : tr("its size does not match the shape");
      result.notes.push_back(i18n::format(tr("ignored %s: %s"), key.c_str(), why));
    }
  }
  if (result.state.view != "scaling" && result.state.dk > Limits::max_d)
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
  std::vector<std::pair<std::string, std::string>> out;
  auto put = [&](const char* key, const std::string& value) { out.emplace_back(key, value); };
  auto ints = [](int v) { return std::to_string(v); };
  if (p) put("preset", s.preset);
  const bool all = complete;
  // In view=train the keys the walkthrough shares with the model are the model's.
  const bool train = s.view == "train";
  auto shared = [&](const char* key) { return train && find_train_key(key)->shared; };
  if (all || s.kind != base.kind) put("attn", kKindNames[int(s.kind)]);
  if (!all && s.nq == s.nk && (s.nq != base.nq || s.nk != base.nk)) {
    put("n", ints(s.nq));
  } else {
    if (all || s.nq != base.nq) put("nq", ints(s.nq));
    if (all || s.nk != base.nk) put("nk", ints(s.nk));
  }
  if ((all || s.dk != base.dk) && !shared("dk")) put("dk", ints(s.dk));
  if (all || s.project != base.project) put("proj", s.project ? "1" : "0");
  if ((all || s.dmodel != base.dmodel) && !shared("dmodel")) put("dmodel", ints(s.dmodel));
  if (all || (s.dv != base.dv && s.kind == Kind::cross)) put("dv", ints(s.dv));
  if ((all || s.seed != base.seed) && !shared("seed")) put("seed", std::to_string(s.seed));
  if ((all || s.scale != base.scale || s.custom_scale != base.custom_scale) && !shared("scale"))
    put("scale", s.scale == attn::ScaleMode::custom ? float_text(s.custom_scale) : kScaleNames[int(s.scale)]);
  if ((all || s.causal != base.causal) && !shared("causal")) put("causal", kCausalNames[int(s.causal)]);
  // Loaded data (Q, K, V and its mask) stays out of links: at n = 2048 it would be megabytes.
  const bool loaded = !s.source.empty();
  // The complete form names the mask too (a preset's padding is part of what is computed).
  if (s.pad != base.pad || (all && !s.pad.empty())) put("pad", list_text(s.pad, ints));
  if ((s.blocked != base.blocked || (all && !s.blocked.empty())) && !loaded)
    put("block", list_text(s.blocked, [](const std::pair<int, int>& c) {
          return std::to_string(c.first) + ":" + std::to_string(c.second);
        }));
  if (s.q != base.q && !loaded) put("q", list_text(s.q, float_text));
  if (s.k != base.k && !loaded) put("k", list_text(s.k, float_text));
  if (s.v != base.v && !loaded) put("v", list_text(s.v, float_text));
  if (s.x != base.x) put("x", list_text(s.x, float_text));
  if (s.wq != base.wq) put("wq", list_text(s.wq, float_text));
  if (s.wk != base.wk) put("wk", list_text(s.wk, float_text));
  if (s.wv != base.wv) put("wv", list_text(s.wv, float_text));
  if (all || s.step != base.step) put("step", step_name(s.step));
  if (all || s.query != base.query) put("query", ints(s.query));
  if ((all || s.batch != base.batch) && !shared("batch")) put("batch", ints(s.batch));
  // The shown head of loaded data, for the page API only: a link does not keep the data.
  if (all && loaded_head_count(s) > 1) put("head", ints(s.head));
  if (all || s.view != base.view) put("view", s.view);
  if (all || s.theme != base.theme) put("theme", s.theme);
  if (all || s.lang != base.lang) put("lang", s.lang);
  if (all || s.ui != base.ui) put("ui", s.ui);
  if (all || s.mode != base.mode) put("mode", s.mode);
  if (all || s.mult != base.mult) put("mult", float_text(s.mult));
  if (all || s.row != base.row) put("row", ints(s.row));
  if (all || s.pitfall != base.pitfall) put("pitfall", s.pitfall);
  if (all || s.tile != base.tile) put("tile", ints(s.tile));
  if ((all || s.heads != base.heads) && !shared("heads")) put("heads", ints(s.heads));
  if (all || s.kv_heads != base.kv_heads) put("kvheads", ints(s.kv_heads));
  if (all || s.run != base.run) put("run", s.run ? "1" : "0");
  // The model's settings that differ from its task's defaults, in any view (a link may set them
  // before switching to view=train); the keys it shares with the walkthrough (dk, heads, …)
  // are the model's only in view=train.
  const train::Config defaults = train::defaults(s.train.task);
  if ((all && train) || s.train.task != train::Task::reverse) put("task", train::task_name(s.train.task));
  for (const TrainKey& key : kTrainKeys)
    if ((train || !key.shared) && ((all && train) || key.text(s.train) != key.text(defaults)))
      put(key.key, key.text(s.train));
  // How the runs play, likewise in any view where they differ.
  const State plain;
  if ((all && train) || s.play != plain.play) put("play", s.play ? "1" : "0");
  if ((all && train) || s.steps_per_frame != plain.steps_per_frame) put("spf", ints(s.steps_per_frame));
  if ((all && train) || s.vs != plain.vs) put("vs", s.vs);
  return out;
}

std::string to_fragment(const State& s, bool complete) {
  std::string out;
  for (const auto& [key, value] : state_pairs(s, complete)) out += (out.empty() ? "" : "&") + key + "=" + value;
  return out;
}

}  // namespace lab
