// The table of a link's keys: the one place that says how each key reads, how it writes, and
// what it changes (docs/embed.md's table; tests/unit/docs_test.cpp holds the two together).
#include <algorithm>
#include <iterator>
#include <string>

#include "keys.h"
#include "number_text.h"  // links write floats in their shortest exact text

namespace lab {

namespace {

// A figure names a few of its view's parts; anything longer is not a figure.
constexpr std::size_t kMaxFigureParts = 16, kMaxFigurePartName = 32;

const std::size_t kMaxMatrix = std::size_t(Limits::max_batch) * Limits::max_n * Limits::max_d;

// An index pair "a<sep>b", each index below `bound`: block's query:key cells, view=model's
// layer.head heads.
bool read_pair(std::string_view item, char sep, long bound, std::pair<int, int>& pair) {
  const auto parts = split(item, sep);
  long a = 0, b = 0;
  if (parts.size() != 2 || !parse_int(parts[0], 0, bound - 1, a) || !parse_int(parts[1], 0, bound - 1, b))
    return false;
  pair = {int(a), int(b)};
  return true;
}
std::string pair_text(const std::pair<int, int>& p, char sep) {
  return std::to_string(p.first) + sep + std::to_string(p.second);
}
// A list of index pairs separated by commas: block's cells, ablate's heads.
bool read_pairs(std::string_view text, std::size_t max_items, char sep, long bound,
                std::vector<std::pair<int, int>>& out) {
  return parse_list(text, max_items, out, [&](std::string_view item, std::pair<int, int>& pair) {
    return read_pair(item, sep, bound, pair);
  });
}
std::string pairs_text(const std::vector<std::pair<int, int>>& pairs, char sep) {
  return list_text(pairs, [&](const std::pair<int, int>& p) { return pair_text(p, sep); });
}

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

// A choice among E's names; a bad value's sentence lists them all.
template <class E>
std::string read_name(Reading& r, E& field) {
  return parse_name(r.value, field) ? "" : r.expected_text(names_text<E>());
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

// view=model's heads (ablate, head) as "1.2": layer and head. Whether the model has the head is
// the model's to say (ModelView), so a link checks only the form.
bool read_model_head(std::string_view t, std::pair<int, int>& out) {
  return read_pair(t, '.', Limits::max_heads, out);
}
std::string model_head_text(const std::pair<int, int>& h) { return pair_text(h, '.'); }
// view=model's characters (target, against, edit's): one UTF-8 character (its lead byte says
// how many bytes); whether the model knows it is the model's to say.
bool one_character(std::string_view t) {
  if (t.empty()) return false;
  const auto lead = static_cast<unsigned char>(t[0]);
  const std::size_t length = lead < 0x80 ? 1 : lead >> 5 == 0x6 ? 2 : lead >> 4 == 0xE ? 3 : lead >> 3 == 0x1E ? 4 : 0;
  return length == t.size() &&
         std::all_of(t.begin() + 1, t.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; });
}
std::string read_character(Reading& r, std::string& field) {
  if (!r.value.empty() && !one_character(r.value)) return r.expected(N_("one character, or nothing"));
  field = r.value;
  return "";
}
// The head key writes the model's open head, unless loaded data's heads are what it names (the
// walkthrough showing loaded data of several heads, outside view=model).
bool writes_open_head(const State& s) {
  return s.open_head && (s.view == View::model || loaded_head_count(s) < 2);
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

using S = State;
using R = Reading;
const Key kKeys[] = {
    {"preset", nullptr, [](const S& s) { return s.preset; },
     [](const S& s, const S&, bool) { return find_preset(s.preset) != nullptr; }, keep<&S::preset>, false},
    {"attn", [](S& s, R& r) { return read_name(r, s.kind); }, name_text<&S::kind>,
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
    {"causal", [](S& s, R& r) { return read_name(r, s.causal); }, name_text<&S::causal>,
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
       return read_pairs(r.value, std::size_t(Limits::max_n) * 4, ':', Limits::max_n, s.blocked)
                  ? ""
                  : r.expected(N_("query:key cells separated by commas"));
     },
     [](const S& s) { return pairs_text(s.blocked, ':'); },
     [](const S& s, const S& base, bool all) { return mask_changed<&S::blocked>(s, base, all) && s.source.empty(); },
     keep<&S::blocked>, true},
    {"q", read_matrix<&S::q>, matrix_text<&S::q>, matrix_changed<&S::q, false>, keep<&S::q>, true, 0, &S::q},
    {"k", read_matrix<&S::k>, matrix_text<&S::k>, matrix_changed<&S::k, false>, keep<&S::k>, true, 0, &S::k},
    {"v", read_matrix<&S::v>, matrix_text<&S::v>, matrix_changed<&S::v, false>, keep<&S::v>, true, 0, &S::v},
    {"x", read_matrix<&S::x>, matrix_text<&S::x>, matrix_changed<&S::x, true>, keep<&S::x>, true, 0, &S::x},
    {"wq", read_matrix<&S::wq>, matrix_text<&S::wq>, matrix_changed<&S::wq, true>, keep<&S::wq>, true, 0, &S::wq},
    {"wk", read_matrix<&S::wk>, matrix_text<&S::wk>, matrix_changed<&S::wk, true>, keep<&S::wk>, true, 0, &S::wk},
    {"wv", read_matrix<&S::wv>, matrix_text<&S::wv>, matrix_changed<&S::wv, true>, keep<&S::wv>, true, 0, &S::wv},
    {"step", [](S& s, R& r) { return read_name(r, s.step); },
     name_text<&S::step>, changed<&S::step>, keep<&S::step>, false},
    {"query", [](S& s, R& r) { return read_row(r, s.query); }, whole_text<&S::query>, changed<&S::query>,
     keep<&S::query>, false},
    {"batch", [](S& s, R& r) { return read_row(r, s.batch); }, whole_text<&S::batch>, changed<&S::batch>,
     keep<&S::batch>, false},
    // Two heads by their form: layer.head is view=model's head opened large (in a link; empty
    // closes it), a plain number the shown head of loaded data (for the page API only: a link
    // does not keep the data).
    {"head",
     [](S& s, R& r) {
       if (r.value.empty()) {
         s.open_head.reset();
         return std::string();
       }
       if (r.value.find('.') != std::string::npos) {
         std::pair<int, int> head;
         if (!read_model_head(r.value, head)) return r.expected(N_("a head of view=model as layer.head, e.g. 1.2"));
         s.open_head = head;
         return std::string();
       }
       const int count = loaded_head_count(s);
       int head = 0;
       if (count < 2) return r.expected(N_("layer.head (view=model), or loaded data with several heads"));
       if (!r.whole(0, count - 1, head)) return r.expected(N_("a head from 0 to %d"), count - 1);
       show_head(s, head);
       return std::string();
     },
     [](const S& s) { return writes_open_head(s) ? model_head_text(*s.open_head) : std::to_string(s.head); },
     [](const S& s, const S& base, bool all) {
       return writes_open_head(s) ? s.open_head != base.open_head : all && loaded_head_count(s) > 1;
     },
     keep<&S::head, &S::open_head>, true},
    {"view", [](S& s, R& r) { return read_name(r, s.view); },
     name_text<&S::view>, changed<&S::view>, keep<&S::view>, false},
    {"theme", [](S& s, R& r) { return read_name(r, s.theme); }, name_text<&S::theme>,
     changed<&S::theme>, keep<&S::theme>, false},
    // The language and the mode count as computing: what the screen derives from a computation
    // (the screen reader's table of the shown step, practice's question) is made again with it.
    {"lang", [](S& s, R& r) { return read_name(r, s.lang); }, name_text<&S::lang>,
     changed<&S::lang>, keep<&S::lang>, true},
    {"ui", [](S& s, R& r) { return read_name(r, s.density); }, name_text<&S::density>,
     changed<&S::density>, keep<&S::density>, false},
    {"mode", [](S& s, R& r) { return read_name(r, s.mode); }, name_text<&S::mode>,
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
    {"pitfall", [](S& s, R& r) { return read_name(r, s.pitfall); }, name_text<&S::pitfall>, changed<&S::pitfall>, keep<&S::pitfall>, false},
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
    // view=train's task; the model's settings (train_keys.cpp) are written after it.
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
    // view=model's text and switched-off heads: the model (ModelView) computes from them itself,
    // so the walkthrough's numbers do not depend on them.
    {"text",
     [](S& s, R& r) {
       if (r.value.size() > std::size_t(Limits::max_text_bytes))
         return r.expected(N_("a text of at most %d bytes"), Limits::max_text_bytes);
       s.text = r.value;
       return std::string();
     },
     [](const S& s) { return s.text; }, changed<&S::text>, keep<&S::text>, false},
    {"ablate",
     [](S& s, R& r) {
       return read_pairs(r.value, std::size_t(Limits::max_ablate), '.', Limits::max_heads, s.ablate)
                  ? ""
                  : r.expected(N_("heads as layer.head separated by commas, e.g. 1.2,0.3"));
     },
     [](const S& s) { return pairs_text(s.ablate, '.'); },
     changed<&S::ablate>, keep<&S::ablate>, false},
    // view=model's chosen character and the logit split there, and its changed letter
    // (ModelView checks them against the text and the model's characters).
    {"at",
     [](S& s, R& r) {
       return r.whole(0, Limits::max_text_bytes - 1, s.at) ? "" : r.expected(N_("a character's position in the text"));
     },
     whole_text<&S::at>, [](const S& s, const S& base, bool complete) { return s.at >= 0 && (complete || s.at != base.at); },
     keep<&S::at>, false},
    {"target", [](S& s, R& r) { return read_character(r, s.target); }, [](const S& s) { return s.target; },
     changed<&S::target>, keep<&S::target>, false},
    {"against", [](S& s, R& r) { return read_character(r, s.against); }, [](const S& s) { return s.against; },
     changed<&S::against>, keep<&S::against>, false},
    {"edit",
     [](S& s, R& r) {
       if (r.value.empty()) {
         s.edit.reset();
         return std::string();
       }
       const std::size_t colon = r.value.find(':');
       long position = 0;
       if (colon == std::string::npos || !parse_int(std::string_view(r.value).substr(0, colon), 0, Limits::max_text_bytes - 1, position) ||
           !one_character(std::string_view(r.value).substr(colon + 1)))
         return r.expected(N_("a position in the first copy and one character, e.g. 4:c"));
       s.edit.emplace(int(position), r.value.substr(colon + 1));
       return std::string();
     },
     [](const S& s) { return s.edit ? std::to_string(s.edit->first) + ":" + s.edit->second : std::string(); },
     changed<&S::edit>, keep<&S::edit>, false},
    // view=model's weights (ModelFiles checks the step against the model's report): "lab",
    // "one-layer", or an opened model's name.
    {"model",
     [](S& s, R& r) {
       s.model_name.clear();
       if (r.value != name_of(LanguageModelChoice::opened) && read_name(r, s.model).empty()) return std::string();
       const bool printable = std::all_of(r.value.begin(), r.value.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x20; });
       if (r.value.empty() || r.value.size() > 200 || !printable)
         return r.expected(N_("lab, one-layer, or the name of a model opened from its files"));
       s.model = LanguageModelChoice::opened;
       s.model_name = r.value;
       return std::string();
     },
     [](const S& s) { return s.model == LanguageModelChoice::opened ? s.model_name : std::string(name_of(s.model)); },
     [](const S& s, const S& base, bool all) { return changed<&S::model>(s, base, all) || s.model_name != base.model_name; },
     keep<&S::model, &S::model_name>, false},
    {"checkpoint",
     [](S& s, R& r) {
       return r.whole(0, Limits::max_checkpoint, s.checkpoint) ? "" : r.expected(N_("a training step from 0 to %d"), Limits::max_checkpoint);
     },
     whole_text<&S::checkpoint>, changed<&S::checkpoint>, keep<&S::checkpoint>, false},
};

}  // namespace

Rows<Key> keys() { return {kKeys, std::size(kKeys)}; }

const Key* find_key(std::string_view name) { return keys().find(name, &Key::name); }

std::vector<std::string> state_keys() {
  std::vector<std::string> keys;
  for (const Key& k : kKeys) keys.push_back(k.name);
  for (const TrainKey& k : train_keys()) keys.push_back(k.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
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

}  // namespace lab
