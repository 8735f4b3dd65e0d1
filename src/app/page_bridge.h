// What the app tells the browser page and reads from it: the events of window.attentionLab
// (docs/embed.md), the fragment and the language it opens with. Natively these do nothing (or
// read the environment). The page's calls into the app are page_api.cpp's.
#pragma once

#include <string>
#include <vector>

namespace page {

// Tells the page the state changed (it updates the URL fragment and calls its listeners).
void state_changed(const std::string& fragment);
// Shows the notes about ignored fragment keys and values to the page (an ARIA live region).
void notes(const std::vector<std::string>& notes);
// The learner answered the practice question (practice::Session::answered_json()): the page's
// `answer` listeners and its host hear of it.
void answered(const std::string& event_json);
// A new practice question is on screen (practice::Session::question_json()): the page's host
// hears of it, so that a lesson clears the verdict it showed for the last one.
void asked(const std::string& question_json);
// The first frame is on screen: resolves attentionLab.ready.
void first_frame();
// Whether the page hides the instance as it starts (web/page-tools.js's Module.labHidden; later
// changes come through lab_set_visible). Natively false.
bool hidden();
// The fragment the page was opened with ("" natively).
std::string initial_fragment();
// The reader's language: the browser's navigator.language, natively LC_ALL, LC_MESSAGES or
// LANG (for lang=auto).
std::string system_language();
// The interface's language changed ("en", "es"): the page's <html lang> follows.
void language_changed(const char* code);
// Figure mode: the figure's height in CSS pixels changed (0: not a figure any more); the page
// sizes its canvas to it and tells the lesson around it (attention-lab:size).
void figure_height(double css_pixels);
// The whole lab in one column: the height that shows all of it, in CSS pixels (0: side by
// side, filling the window); the page tells a host that sizes its frame (attention-lab:size).
void content_height(double css_pixels);

}  // namespace page
