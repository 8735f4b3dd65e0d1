// The text of a link's values, private to src/state: whole numbers and floats read strictly,
// lists separated by commas read and written.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace lab {

// The whole text must be the number: a NUL inside it would otherwise end strtol/strtof early
// and pass for an empty, zero value.
inline bool parse_int(std::string_view text, long lo, long hi, long& out) {
  std::string t(text);
  if (t.empty() || t.size() > 12) return false;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(t.c_str(), &end, 10);
  if (errno || end != t.c_str() + t.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

inline bool parse_float(std::string_view text, float& out) {
  std::string t(text);
  if (t.empty() || t.size() > 40) return false;
  char* end = nullptr;
  errno = 0;
  const float value = std::strtof(t.c_str(), &end);
  if (errno || end != t.c_str() + t.size() || !std::isfinite(value)) return false;
  out = value;
  return true;
}

inline std::vector<std::string_view> split(std::string_view text, char sep) {
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

}  // namespace lab
