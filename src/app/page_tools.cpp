#include "page_tools.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "accessibility.h"
#include "app.h"  // wake(): the app draws on demand
#include "export.h"
#include "i18n.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <nlohmann/json.hpp>
#endif

namespace tools {
namespace {

const lab::Lab* g_lab = nullptr;
ui::Memory* g_ui = nullptr;
bool g_png_requested = false;  // request_png(), for after the next drawn frame

#ifdef __EMSCRIPTEN__

// web/page-tools.js turns the bytes into a download and answers a copy through
// lab_export_message once the clipboard has (or has not) taken the text.
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

// "Open in the full lab": web/page-tools.js opens index.html at the fragment in a new tab.
void open_lab(const std::string& fragment) {
  EM_ASM({ if (Module.labOpen) Module.labOpen(UTF8ToString($0)); }, fragment.c_str());
}

// The header's "Lesson" (web/page-tools.js): lesson.html or leccion.html beside the page.
void open_lesson(const char* lang) {
  EM_ASM({ if (Module.labOpenLesson) Module.labOpenLesson(UTF8ToString($0)); }, lang);
}
bool has_lesson() { return EM_ASM_INT({ return Module.labHasLesson ? 1 : 0; }) != 0; }

// "Open data…" (web/load.js): the page's file chooser, on a page of its own (an embedded
// instance takes drops only).
void open_data() { EM_ASM({ if (Module.labOpenData) Module.labOpenData(); }); }
bool has_open_data() { return EM_ASM_INT({ return Module.labOpenData ? 1 : 0; }) != 0; }

void read_preferences(ui::Memory& ui) {
  ui.prefers_dark = EM_ASM_INT({ return matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0; });
  ui.reduced_motion = EM_ASM_INT({ return matchMedia('(prefers-reduced-motion: reduce)').matches ? 1 : 0; });
  ui.touch_screen = EM_ASM_INT({ return matchMedia('(pointer: coarse)').matches ? 1 : 0; });
}

void send_table(const ui::StageTable& t) {
  const std::string text = nlohmann::json{{"caption", t.caption}, {"columns", t.columns}, {"rows", t.rows},
                                          {"cells", t.cells}, {"selected", t.selected_row}}
                               .dump();
  EM_ASM({ if (Module.labTable) Module.labTable(JSON.parse(UTF8ToString($0))); }, text.c_str());
}

void announce(const std::string& text) {
  EM_ASM({ if (Module.labAnnounce) Module.labAnnounce(UTF8ToString($0)); }, text.c_str());
}

#else

ui::ExportOutcome save(const ui::ExportFile& file) {
  const std::filesystem::path path = std::filesystem::absolute(file.name);
  std::ofstream out(path, std::ios::binary);
  const bool ok = bool(out << file.bytes);
  return {ok, i18n::format(ok ? tr("Saved to %s") : tr("Could not write %s"), path.string().c_str())};
}

std::string copy(const std::string& text) {
  ImGui::SetClipboardText(text.c_str());
  return tr("Copied to the clipboard.");
}

// The desktop program is the full lab already: it says which link the figure stands for.
void open_lab(const std::string& fragment) { std::printf("attention-lab: the full lab is #%s\n", fragment.c_str()); }

void open_lesson(const char*) {}
bool has_lesson() { return false; }  // the lesson is a web page; the desktop program is the lab alone

void open_data() {}
bool has_open_data() { return false; }  // the desktop program takes its data from --state and the CLI

void read_preferences(ui::Memory&) {}  // the desktop has no such queries: light, full motion
void send_table(const ui::StageTable&) {}
void announce(const std::string&) {}

#endif

}  // namespace

void attach(const lab::Lab& lab, ui::Memory& ui) {
  g_lab = &lab;
  g_ui = &ui;
  ui.save = save;
  ui.copy = copy;
  ui.open_lab = open_lab;
  if (has_lesson()) ui.open_lesson = open_lesson;
  if (has_open_data()) ui.open_data = open_data;
  read_preferences(ui);
}

void request_png() {
  g_png_requested = true;
  wake();
}

void after_frame() {
  if (std::exchange(g_png_requested, false)) ui::run_export(*g_lab, *g_ui, ui::ExportKind::png);
  if (ui::stage_table_changed(*g_lab, *g_ui)) send_table(ui::stage_table(*g_lab, *g_ui));
  if (!g_ui->announcement.empty()) announce(std::exchange(g_ui->announcement, {}));
}

}  // namespace tools
