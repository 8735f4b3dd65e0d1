// The interface's languages. Every sentence it shows is written in English in the code and
// passed through tr(), which returns it in the language on screen: the English text is the
// key (as gettext's msgid), and src/i18n/es/*.json hold the Spanish, one file per area of the
// interface. tests/js/i18n.test.mjs fails when a message has no translation.
//
// Numbers keep one notation in every language (a decimal point, no digit grouping), so a value
// read on screen can be typed into a link, a request or a spreadsheet as it is.
#pragma once

#include <string>
#include <string_view>

namespace i18n {

enum class Lang { en, es };

// The link's lang key: "en", "es", or "auto" (the system's language: the browser's
// navigator.language, natively LC_ALL / LC_MESSAGES / LANG).
Lang resolve(std::string_view lang_key, std::string_view system_language);
const char* code(Lang lang);  // "en", "es": for <html lang>

// The language tr() translates into (set once per frame by the app; English by default, so
// code outside the interface, the CLI and the tests, reads English).
void set_language(Lang lang);
Lang language();

// `english` in the current language. A label's hidden ImGui id ("Play##stepper") is kept
// as it is and only the visible part translated, so ids do not change with the language.
// Falls back to the English text when a translation is missing. The pointer stays valid.
const char* tr(const char* english);

// printf into a std::string: for sentences with values, the format is translated first (a
// message such as "%d of %d rows", then formatted), so a translation can move words around
// the values.
std::string format(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

}  // namespace i18n

using i18n::tr;

// Marks a literal as a message to translate where it is defined (a table of titles), while
// tr() is called where it is shown: tr(view.title). As gettext's N_().
constexpr const char* N_(const char* english) { return english; }
