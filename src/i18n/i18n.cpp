#include "i18n.h"

#include <cstdarg>
#include <cstdio>
#include <functional>
#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include "messages.h"  // src/i18n/es/*.json, embedded (cmake/embed.cmake)

namespace i18n {
namespace {

Lang g_lang = Lang::en;

// English → Spanish, read from the embedded JSON files on first use. Ordered maps with
// std::less<>, so a lookup by string_view builds no string (tr() runs for every word drawn).
using Table = std::map<std::string, std::string, std::less<>>;

const Table& spanish() {
  static const Table table = [] {
    Table t;
    for (const EmbeddedFile& f : messages_files) {
      const nlohmann::json j = nlohmann::json::parse(f.data, f.data + f.size);
      for (const auto& [english, translated] : j.items()) t.emplace(english, translated.get<std::string>());
    }
    return t;
  }();
  return table;
}

}  // namespace

Lang resolve(std::string_view lang_key, std::string_view system_language) {
  if (lang_key == "es") return Lang::es;
  if (lang_key == "en") return Lang::en;
  // "es", "es-ES", "es_MX.UTF-8": the language is the first two letters.
  const bool es = system_language.size() >= 2 && (system_language[0] | 0x20) == 'e' && (system_language[1] | 0x20) == 's' &&
                  (system_language.size() == 2 || system_language[2] == '-' || system_language[2] == '_' || system_language[2] == '.');
  return es ? Lang::es : Lang::en;
}

const char* code(Lang lang) { return lang == Lang::es ? "es" : "en"; }

void set_language(Lang lang) { g_lang = lang; }
Lang language() { return g_lang; }

const char* tr(const char* english) {
  if (g_lang == Lang::en || !english) return english;
  // Labels with an id are translated once and kept here, so the pointer stays valid.
  static Table labels;
  const std::string_view text(english);
  const std::size_t id = text.find("##");
  const auto& table = spanish();
  if (id == std::string_view::npos) {
    const auto it = table.find(text);
    return it == table.end() ? english : it->second.c_str();
  }
  const auto cached = labels.find(text);
  if (cached != labels.end()) return cached->second.c_str();
  const auto it = table.find(text.substr(0, id));
  std::string label = (it == table.end() ? std::string(text.substr(0, id)) : it->second) + std::string(text.substr(id));
  return labels.emplace(std::string(text), std::move(label)).first->second.c_str();
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out(n > 0 ? std::size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, again);
  va_end(again);
  return out;
}

}  // namespace i18n
