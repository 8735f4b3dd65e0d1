// The desktop program's stand-ins for page_bridge.h, all in one place: no page around it, so
// events go nowhere, files go to the working directory, the clipboard is ImGui's, and the
// language comes from the environment. The browser's side is page_bridge.cpp.
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sstream>

#include "app.h"
#include "i18n.h"
#include "page_bridge.h"

namespace page {

// [SECTION] the app's events: nobody listens
void state_changed(const std::string&, const std::string&) {}
void first_frame(const std::string&) {}
void notes(const std::vector<std::string>&) {}
void answered(const std::string&) {}
void asked(const std::string&) {}
void language_changed(const char*) {}
void figure_height(double) {}
void content_height(double) {}

// The site's folder is the source tree's web/ (ATTN_SITE_DIR), where the weights are committed.
void fetch_model(const std::string& weights_name, const std::string& report_name) {
  const auto read = [](const std::string& name, std::string& bytes) {
    std::ifstream in(std::filesystem::path(ATTN_SITE_DIR) / name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    bytes = s.str();
    return bool(in);
  };
  std::string weights, report, error;
  if (!read(weights_name, weights)) error = weights_name + ": cannot read the file";
  if (!report_name.empty()) read(report_name, report);  // without it the heads go unlabelled (ModelView says so)
  model_arrived(*g_app, weights_name, weights, report, error);
}

// [SECTION] what the app reads: the environment
bool hidden() { return false; }
std::string initial_fragment() { return ""; }
std::string system_language() {
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"})
    if (const char* value = std::getenv(name); value && *value) return value;
  return "";
}
Preferences preferences() { return {}; }  // the desktop has no such queries: light, full motion

// [SECTION] export, links and accessibility
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

bool has_lesson() { return false; }  // the lesson is a web page; the desktop program is the lab alone
void open_lesson(const char*) {}

bool has_open_data() { return false; }  // the desktop program takes its data from --state and the CLI
void open_data() {}
void open_model() {}  // the desktop program opens a model from --model

void send_table(const ui::StageTable&) {}
void announce(const std::string&) {}

}  // namespace page
