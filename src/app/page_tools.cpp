#include "page_tools.h"

#include <utility>

#include "accessibility.h"
#include "app.h"  // wake(): the app draws on demand
#include "export.h"
#include "page_bridge.h"

namespace tools {
namespace {

const lab::Lab* g_lab = nullptr;
ui::Memory* g_ui = nullptr;
bool g_png_requested = false;  // request_png(), for after the next drawn frame

}  // namespace

void attach(const lab::Lab& lab, ui::Memory& ui) {
  g_lab = &lab;
  g_ui = &ui;
  ui.save = page::save;
  ui.copy = page::copy;
  ui.open_lab = page::open_lab;
  if (page::has_lesson()) ui.open_lesson = page::open_lesson;
  if (page::has_open_data()) ui.open_data = page::open_data;
  const page::Preferences p = page::preferences();
  ui.prefers_dark = p.dark;
  ui.reduced_motion = p.reduced_motion;
  ui.touch_screen = p.coarse_pointer;
}

void request_png() {
  g_png_requested = true;
  wake();
}

void after_frame() {
  if (std::exchange(g_png_requested, false)) ui::run_export(*g_lab, *g_ui, ui::ExportKind::png);
  if (ui::stage_table_changed(*g_lab, *g_ui)) page::send_table(ui::stage_table(*g_lab, *g_ui));
  if (!g_ui->announcement.empty()) page::announce(std::exchange(g_ui->announcement, {}));
}

}  // namespace tools
