// The state's keys, private to src/state: the table of a link's keys (keys.cpp) and the
// model's keys of view=train (train_keys.cpp), which the link's reading and writing (link.cpp)
// go through.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "i18n.h"
#include "link_text.h"
#include "state.h"

namespace lab {

// Every name of the model's position encodings and of practice's kinds of question, for
// parse_name and names_text (one list each).
template <>
struct Names<train::Positions> {
  static constexpr const auto& list = train::kPositionNames;
};
template <>
struct Names<practice::QuestionKind> {
  static constexpr const auto& list = practice::kKindNames;
};

// A table's rows, for a range-for.
template <class Row>
struct Rows {
  const Row* first;
  std::size_t count;
  const Row* begin() const { return first; }
  const Row* end() const { return first + count; }

  // The row whose name (the member `name_of`) is `name`, or null.
  template <class Name>
  const Row* find(std::string_view name, Name Row::*name_of) const {
    for (const Row& row : *this)
      if (name == row.*name_of) return &row;
    return nullptr;
  }
};

// [SECTION] the link's keys (keys.cpp)

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

// Every key, in the order links write them; one by its name (nullptr: no such key).
Rows<Key> keys();
const Key* find_key(std::string_view name);

// [SECTION] the model's keys of view=train (train_keys.cpp)

// The model's settings in a link: key, whether the walkthrough reads the same key (then it
// sets the model only in view=train), its text, and how a value sets it ("" or what was
// expected). Ranges are train::validate()'s, checked by the caller on the whole config.
struct TrainKey {
  const char* key;
  bool shared;
  std::string (*text)(const train::Config&);
  const char* (*set)(train::Config&, const std::string&);
};

// Every model key, in the order links write them; one by its name (nullptr: no such key).
Rows<TrainKey> train_keys();
const TrainKey* find_train_key(std::string_view key);
// Every switch of a link (proj, run, play, the model's causal) reads "0" or "1" here.
const char* set_switch(bool& field, std::string_view value);
// Sets one model setting on a copy of `c`: "" and the copy in `out`, or the note's reason
// (what was expected, or validate()'s sentence about the resulting model).
std::string set_train(const train::Config& c, const TrainKey& key, const std::string& value, train::Config& out);
// The model setting at the valid whole number nearest to `value`, when `value` is a whole
// number the key reads but the model it makes is invalid. validate() alone states the limits:
// with the other settings fixed it accepts an interval, whose edge between the current setting
// (valid) and `value` is found by bisection.
bool nearest_valid(const train::Config& c, const TrainKey& key, const std::string& value, train::Config& out);

}  // namespace lab
