// The browser's side of page_bridge.h: each function calls its hook of src/app/boundary.json
// (defined by web/page.js, page-tools.js or load.js; a hook the page did not define is skipped).
// Built for the browser only; the desktop's stand-ins are page_desktop.cpp.
#include "page_bridge.h"

#include <emscripten.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "accessibility.h"
#include "i18n.h"

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

// [SECTION] the app's events
void state_changed(const std::string& fragment, const std::string& state_json) {
  EM_ASM({
    if (Module.labStateChanged) Module.labStateChanged(UTF8ToString($0), JSON.parse(UTF8ToString($1)));
  }, fragment.c_str(), state_json.c_str());
}

void first_frame(const std::string& state_json) {
  EM_ASM({ if (Module.labReady) Module.labReady(JSON.parse(UTF8ToString($0))); }, state_json.c_str());
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

void fetch_model(const std::string& weights, const std::string& report) {
  EM_ASM({ if (Module.labFetchModel) Module.labFetchModel(UTF8ToString($0), UTF8ToString($1)); }, weights.c_str(),
         report.c_str());
}

// [SECTION] what the app reads from the page
bool hidden() { return EM_ASM_INT({ return Module.labHidden ? 1 : 0; }) != 0; }

std::string initial_fragment() { return read_page_text(false); }

std::string system_language() { return read_page_text(true); }

Preferences preferences() {
  // One bit a preference, in the table's order.
  const int bits = EM_ASM_INT({
    var on = Module.labPreferences ? Module.labPreferences() : [];
    var bits = 0;
    for (var i = 0; i < on.length; i++) bits |= (on[i] ? 1 : 0) << i;
    return bits;
  });
  return {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
}

// [SECTION] export, links and accessibility
// page-tools.js turns the bytes into a download.
ui::ExportOutcome save(const ui::ExportFile& file) {
  EM_ASM({
    if (!Module.labDownload) return;
    Module.labDownload(UTF8ToString($0), UTF8ToString($1), HEAPU8.slice($2, $2 + $3));
  }, file.name.c_str(), file.mime.c_str(), file.bytes.data(), file.bytes.size());
  return {true, i18n::format(tr("Downloading %s."), file.name.c_str())};
}

std::string copy(const std::string& text) {
  EM_ASM({ if (Module.labCopy) Module.labCopy(UTF8ToString($0)); }, text.c_str());
  return tr("Copying…");
}

// page-tools.js opens index.html at the fragment in a new tab.
void open_lab(const std::string& fragment) {
  EM_ASM({ if (Module.labOpen) Module.labOpen(UTF8ToString($0)); }, fragment.c_str());
}

// page-tools.js: lesson.html or leccion.html beside the page.
bool has_lesson() { return EM_ASM_INT({ return Module.labHasLesson ? 1 : 0; }) != 0; }
void open_lesson(const char* lang) {
  EM_ASM({ if (Module.labOpenLesson) Module.labOpenLesson(UTF8ToString($0)); }, lang);
}

// load.js: the page's file chooser, on a page of its own (an embedded instance takes drops only).
bool has_open_data() { return EM_ASM_INT({ return Module.labOpenData ? 1 : 0; }) != 0; }
void open_data() { EM_ASM({ if (Module.labOpenData) Module.labOpenData(); }); }
void open_model() { EM_ASM({ if (Module.labOpenModel) Module.labOpenModel(); }); }

void send_table(const ui::StageTable& t) {
  const std::string text = nlohmann::json{{"caption", t.caption}, {"columns", t.columns}, {"rows", t.rows},
                                          {"cells", t.cells}, {"selected", t.selected_row}}
                               .dump();
  EM_ASM({ if (Module.labTable) Module.labTable(JSON.parse(UTF8ToString($0))); }, text.c_str());
}

void announce(const std::string& text) {
  EM_ASM({ if (Module.labAnnounce) Module.labAnnounce(UTF8ToString($0)); }, text.c_str());
}

}  // namespace page
