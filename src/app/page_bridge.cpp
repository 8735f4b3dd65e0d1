#include "page_bridge.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

// The page's fragment (`language` 0) or navigator.language (1), as a malloc'ed UTF-8 string.
EM_JS(char*, page_text, (int language), {
  var text = language ? String(navigator.language || "") : location.hash.slice(1);
  var size = lengthBytesUTF8(text) + 1;
  var ptr = _malloc(size);
  stringToUTF8(text, ptr, size);
  return ptr;
});

namespace {
std::string read_page_text(bool language) {
  char* text = page_text(language ? 1 : 0);
  std::string out(text);
  free(text);
  return out;
}
}  // namespace

namespace page {

void state_changed(const std::string& fragment) {
  EM_ASM({ if (Module.labStateChanged) Module.labStateChanged(UTF8ToString($0)); }, fragment.c_str());
}

void notes(const std::vector<std::string>& notes) {
  const std::string text = nlohmann::json(notes).dump();
  EM_ASM({ if (Module.labNotes) Module.labNotes(JSON.parse(UTF8ToString($0))); }, text.c_str());
}

void answered(const std::string& event_json) {
  EM_ASM({ if (Module.labAnswered) Module.labAnswered(JSON.parse(UTF8ToString($0))); }, event_json.c_str());
}

void asked(const std::string& question_json) {
  EM_ASM({ if (Module.labAsked) Module.labAsked(JSON.parse(UTF8ToString($0))); }, question_json.c_str());
}

void first_frame() {
  EM_ASM({ if (Module.labReady) Module.labReady(); });
}

bool hidden() { return EM_ASM_INT({ return Module.labHidden ? 1 : 0; }) != 0; }

std::string initial_fragment() { return read_page_text(false); }

std::string system_language() { return read_page_text(true); }

void language_changed(const char* code) {
  EM_ASM({
    document.documentElement.lang = UTF8ToString($0);
    if (Module.labLanguage) Module.labLanguage();
  }, code);
}

void figure_height(double css_pixels) {
  EM_ASM({ if (Module.labFigureHeight) Module.labFigureHeight($0); }, css_pixels);
}

void content_height(double css_pixels) {
  EM_ASM({ if (Module.labContentHeight) Module.labContentHeight($0); }, css_pixels);
}

}  // namespace page

#else

#include <cstdlib>

namespace page {
void state_changed(const std::string&) {}
void notes(const std::vector<std::string>&) {}
void answered(const std::string&) {}
void asked(const std::string&) {}
void first_frame() {}
bool hidden() { return false; }
std::string initial_fragment() { return ""; }
std::string system_language() {
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"})
    if (const char* value = std::getenv(name); value && *value) return value;
  return "";
}
void language_changed(const char*) {}
void figure_height(double) {}
void content_height(double) {}
}  // namespace page

#endif
