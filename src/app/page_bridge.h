// What the app asks of the page around it: the hooks of src/app/boundary.json (Module.lab…,
// defined by web/page.js, page-tools.js and load.js), and what it reads from the page (the
// fragment, the language, the preferences). In the browser these are page_bridge.cpp; the
// desktop program's stand-ins, all in one place, are page_desktop.cpp. The page's calls into
// the app are page_api.cpp's.
#pragma once

#include <string>
#include <vector>

#include "export.h"

namespace ui {
struct StageTable;
}

namespace page {

// [SECTION] the app's events (window.attentionLab's, and the messages to a host page)
// The state changed: its link fragment and its getState() object (JSON text), told at once,
// so the page never calls back for the state (the URL fragment, listeners, the host).
void state_changed(const std::string& fragment, const std::string& state_json);
// The first complete frame (its layout settled: main.cpp) is on screen, showing this state
// (getState()'s JSON): resolves attentionLab.ready and tells the host.
void first_frame(const std::string& state_json);
// Shows the notes about ignored fragment keys and values to the page (an ARIA live region).
void notes(const std::vector<std::string>& notes);
// The learner answered the practice question (practice::Session::answered_json()): the page's
// `answer` listeners and its host hear of it.
void answered(const std::string& event_json);
// A new practice question is on screen (practice::Session::question_json()): the page's host
// hears of it, so that a lesson clears the verdict it showed for the last one.
void asked(const std::string& question_json);
// The interface's language changed ("en", "es"): the page's <html lang> and words follow.
void language_changed(const char* code);
// Figure mode: the figure's height in CSS pixels changed (0: not a figure any more); the page
// sizes its canvas to it and tells the lesson around it (attention-lab:size).
void figure_height(double css_pixels);
// The whole lab in one column: the height that shows all of it, in CSS pixels (0: side by
// side, filling the window); the page tells a host that sizes its frame (attention-lab:size).
void content_height(double css_pixels);

// view=model wants a weight file (model_files.h): the page fetches it and its report (paths
// under the site, such as model/tiny-lm.bin and model/report.json; no report: "") and hands
// them in through lab_model; the desktop reads them from the site's folder at once. Either way
// they arrive through model_arrived() (app.h).
void fetch_model(const std::string& weights, const std::string& report);

// [SECTION] what the app reads from the page
// Whether the page hides the instance as it starts (Module.labHidden; later changes come
// through lab_set_visible). Natively false.
bool hidden();
// The fragment the page was opened with ("" natively).
std::string initial_fragment();
// The reader's language: the browser's navigator.language, natively LC_ALL, LC_MESSAGES or
// LANG (for lang=auto).
std::string system_language();
// The system's preferences, boundary.json's "preferences" in order (later changes come through
// lab_set_preferences). Natively: light, full motion, a mouse.
struct Preferences {
  bool dark = false, reduced_motion = false, coarse_pointer = false;
};
Preferences preferences();

// [SECTION] export, links and accessibility (the platform's side of the frame's requests, requests.h)
// A file the Export menu made: a download in the browser, a file in the working directory natively.
ui::ExportOutcome save(const ui::ExportFile& file);
// Text to the clipboard; returns what the Export menu says meanwhile (the browser answers
// through lab_export_message once the clipboard has, or has not, taken it).
std::string copy(const std::string& text);
// A figure's "Open in the full lab": the page at `fragment`, in a new tab.
void open_lab(const std::string& fragment);
// The header's "Lesson", where the page has one beside it (has_lesson()).
bool has_lesson();
void open_lesson(const char* lang);
// "Open data…": the page's file chooser, where it offers one (has_open_data()).
bool has_open_data();
void open_data();
// "Open model…": the page's chooser of a model's files (load.js; offered where has_open_data()).
void open_model();
// The screen-reader mirror of the current stage, and an announcement of the focused cell.
void send_table(const ui::StageTable& table);
void announce(const std::string& text);

}  // namespace page
