#include "message.h"

#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include "choices.h"  // booleans as a link spells them
#include "i18n.h"
#include "number_text.h"

namespace lab {

namespace {

// ordered_json keeps the keys in the order the sender wrote them, which the parser applies.
using json = nlohmann::ordered_json;

// A state is a few dozen short keys; anything much larger is not a state.
constexpr std::size_t kMaxBytes = 256 * 1024;
constexpr int kMaxDepth = 3;

std::string percent_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == ',' || c == ':' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Numbers as a person would type them: integers without a decimal point (the fragment reads
// them with strtol), others with the 9 significant digits that keep any float the fragment
// reads (strtof) and leave a value beyond float's range as itself in the parser's note.
std::string number_text(double x) {
  return std::nearbyint(x) == x && std::fabs(x) < 1e15 ? text::fixed(x, 0) : text::significant(x, 9);
}

// A flat list of numbers or strings as the fragment writes lists: "3,5".
bool scalar_list(const json& list, std::string& out) {
  for (const json& e : list) {
    if (!e.is_number() && !e.is_string()) return false;
    out += (out.empty() ? "" : ",") + (e.is_number() ? number_text(e.get<double>()) : e.get<std::string>());
  }
  return true;
}

// A value as the fragment spells it: booleans as 1 or 0, lists joined by commas.
bool value_text(const json& value, std::string& out) {
  if (value.is_string()) out = value.get<std::string>();
  else if (value.is_boolean()) out = name_of(value.get<bool>());
  else if (value.is_number()) out = number_text(value.get<double>());
  else if (!value.is_array() || !scalar_list(value, out)) return false;
  return true;
}

// Parses with a depth limit; a discarded value means the text was not acceptable JSON.
json parse_bounded(std::string_view text) {
  if (text.size() > kMaxBytes) return json::value_t::discarded;
  bool too_deep = false;
  json j = json::parse(
      text.begin(), text.end(),
      [&](int depth, json::parse_event_t, json&) {
        if (depth > kMaxDepth) too_deep = true;
        return !too_deep;
      },
      false);
  return too_deep ? json(json::value_t::discarded) : j;
}

DecodedState from_object(const json& state) {
  DecodedState d;
  if (!state.is_object()) {
    d.notes.push_back(tr("ignored a state that is not an object of keys and values"));
    return d;
  }
  d.accepted = true;
  for (const auto& [key, value] : state.items()) {
    std::string text;
    if (!value_text(value, text)) {
      d.notes.push_back(
          i18n::format(tr("ignored %s: expected a string, number, boolean or a list of numbers"), key.c_str()));
      continue;
    }
    d.fragment += (d.fragment.empty() ? "" : "&") + percent_encode(key) + "=" + percent_encode(text);
  }
  return d;
}

}  // namespace

DecodedState decode_state_object(std::string_view json_text) {
  const json j = parse_bounded(json_text);
  if (j.is_discarded()) return {false, "", {tr("ignored a state that is not valid JSON of at most 256 KiB")}};
  return from_object(j);
}

DecodedState decode_set_message(std::string_view json_text) {
  const json j = parse_bounded(json_text);
  if (!j.is_object() || !j.contains("type") || j["type"] != "attention-lab:set" || !j.contains("state"))
    return {false, "", {tr("ignored a message that is not {type: \"attention-lab:set\", state: {...}}")}};
  return from_object(j["state"]);
}

}  // namespace lab
