// A link's fragment, read (read_fragment: each key through its row, the preset and task first,
// then the view's fit; link_notes: one note per value not used as given, once the state is
// normalised) and written (to_fragment).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "figure_parts.h"
#include "gradients.h"  // the views' limits: experiments::kGradientsN, kHeadsMaxSize
#include "heads.h"
#include "keys.h"
#include "typed.h"  // normalize(state, before): a live change keeps typed values

namespace lab {

// [SECTION] parse_fragment ---------------------------------------------------------------

namespace {

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

std::string used_value(const State& s, const std::string& key) {
  const Key* k = find_key(key);
  return k ? k->text(s) : "";
}

// An experiment view's parameters that are each in range but not together: the nearest valid
// combination, each change recorded. `given(key)`: whether the link set the key.
template <class Given>
void fit_view(State& s, const Given& given, std::vector<LinkReading::Changed>& changed) {
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

}  // namespace

LinkReading read_fragment(std::string_view fragment, const State& base) {
  LinkReading result{base, {}, {}, 0};
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
  std::vector<LinkReading::Changed>& changed = result.changed;
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
  // A typed matrix must fit the final shape; otherwise the base's matrix stays. Which fit
  // depends on the shape keys alone (n, d_k, d_v, d_model, pad, attn, proj), not on the other
  // matrices: normalized_size() answers for each before the state is normalised.
  for (const auto& [key, value] : pairs) {
    const Key* typed = find_key(key);
    if (!typed || !typed->matrix) continue;
    const std::size_t given = (result.state.*typed->matrix).size();
    if (given != 0 && given != normalized_size(result.state, typed->matrix)) {
      typed->keep(result.state, preset_base);
      const bool projected = result.state.projected();
      const bool projection = key == "x" || key[0] == 'w';
      const char* why = key == "q" && projected ? tr("with proj=1, Q is X·W_Q (type x and wq, or set proj=0)")
                        : projection && !projected ? tr("X and W are used only in self-attention with proj=1")
                                                   : tr("its size does not match the shape");
      result.notes.push_back(i18n::format(tr("ignored %s: %s"), key.c_str(), why));
    }
  }
  if (result.state.view != View::scaling && result.state.dk > Limits::max_d)
    changed.push_back({"dk", std::to_string(result.state.dk), tr("is only for view=scaling"), ""});
  result.sequences = result.state.pad.size();
  return result;
}

std::vector<std::string> link_notes(const LinkReading& reading, const State& normalized) {
  std::vector<std::string> notes = reading.notes;
  if (normalized.pad.size() < reading.sequences)
    notes.push_back(i18n::format(
        tr("pad gives %d sequences of %d × %d scores, more than the walkthrough keeps (%llu scores across the batch), "
           "so the first %d are used"),
        int(reading.sequences), normalized.nq, normalized.nk, static_cast<unsigned long long>(Limits::max_batch_scores),
        int(normalized.pad.size())));
  // One note per key, naming the value the link gave (not an intermediate one) and the value
  // now used.
  const auto& changed = reading.changed;
  for (auto c = changed.begin(); c != changed.end(); ++c) {
    if (std::any_of(changed.begin(), c, [&](const LinkReading::Changed& earlier) { return earlier.key == c->key; }))
      continue;
    const std::string used = c->used.empty() ? used_value(normalized, c->key) : c->used;
    notes.push_back(i18n::format(tr("%s=%s %s, so %s=%s is used"), c->key.c_str(), c->given.c_str(), c->why.c_str(),
                                 c->key.c_str(), used.c_str()));
  }
  return notes;
}

ParseResult parse_fragment(std::string_view fragment, const State& base, bool live) {
  LinkReading reading = read_fragment(fragment, base);
  State state = std::move(reading.state);
  if (live) normalize(state, base);
  else normalize(state);
  std::vector<std::string> notes = link_notes(reading, state);
  return {std::move(state), std::move(notes)};
}

// [SECTION] to_fragment ------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> state_pairs(const State& s, bool complete) {
  const Preset* p = find_preset(s.preset);
  const State base = p ? p->state : State{};
  const bool train = s.view == View::train;
  std::vector<std::pair<std::string, std::string>> out;
  for (const Key& key : keys()) {
    // In view=train the keys the walkthrough shares with the model are the model's.
    const TrainKey* model = find_train_key(key.name);
    if (!(train && model && model->shared) && key.write(s, base, complete)) out.emplace_back(key.name, key.text(s));
    if (key.name != std::string_view("task")) continue;
    // The model's settings that differ from its task's defaults, in any view (a link may set
    // them before switching to view=train); the keys it shares with the walkthrough (dk, heads,
    // …) are the model's only in view=train.
    const train::Config defaults = train::defaults(s.train.task);
    for (const TrainKey& k : train_keys())
      if ((train || !k.shared) && ((complete && train) || k.text(s.train) != k.text(defaults)))
        out.emplace_back(k.key, k.text(s.train));
  }
  return out;
}

namespace {
// A value's characters that would end it or the link (&, #, a space, a line break), start an
// escape (%), or are not ASCII, as %XX; every other key's values are plain already, only
// view=model's text has them.
std::string percent_encode(const std::string& value) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (const char c : value) {
    const auto b = static_cast<unsigned char>(c);
    if (b <= 0x20 || b >= 0x7F || c == '%' || c == '&' || c == '#' || c == '=' || c == '+') {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    } else {
      out += c;
    }
  }
  return out;
}
}  // namespace

std::string to_fragment(const State& s, bool complete) {
  std::string out;
  for (const auto& [key, value] : state_pairs(s, complete))
    out += (out.empty() ? "" : "&") + key + "=" + percent_encode(value);
  return out;
}

}  // namespace lab
