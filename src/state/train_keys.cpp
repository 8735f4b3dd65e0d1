// The model's settings in a link (view=train's keys): how each reads and writes, and the
// nearest valid setting for a whole number that makes an invalid model.
#include <cstdint>
#include <iterator>
#include <string>

#include "keys.h"
#include "number_text.h"  // links write floats in their shortest exact text

namespace lab {

namespace {

const char* set_whole(int& field, const std::string& value) {
  long n = 0;
  if (!parse_int(value, 0, 0x7fffffffL, n)) return N_("a whole number");
  field = int(n);
  return "";
}

const char* set_number(float& field, const std::string& value) {
  return parse_float(value, field) ? "" : N_("a number");
}

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

}  // namespace

Rows<TrainKey> train_keys() { return {kTrainKeys, std::size(kTrainKeys)}; }

const TrainKey* find_train_key(std::string_view key) { return train_keys().find(key, &TrainKey::key); }

const char* set_switch(bool& field, std::string_view value) { return parse_name(value, field) ? "" : N_("0 or 1"); }

std::string set_train(const train::Config& c, const TrainKey& key, const std::string& value, train::Config& out) {
  out = c;
  const char* expected = key.set(out, value);
  if (*expected) return i18n::format(tr("expected %s"), tr(expected));
  return train::validate(out);
}

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

std::string compare_config(const State& s, train::Config& out) {
  const std::size_t colon = s.vs.find(':');
  const TrainKey* key = colon == std::string::npos ? nullptr : find_train_key(std::string_view(s.vs).substr(0, colon));
  if (!key) return tr("expected a setting of the model and its value, e.g. scale:none, init:0.02 or lr:0.01");
  return set_train(s.train, *key, s.vs.substr(colon + 1), out);
}

std::string train_setting(const train::Config& c, std::string_view key) {
  const TrainKey* k = find_train_key(key);
  return k ? k->text(c) : "";
}

}  // namespace lab
