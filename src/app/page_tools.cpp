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
  ui.lesson_offered = page::has_lesson();
  ui.open_data_offered = page::has_open_data();
  const page::Preferences p = page::preferences();
  ui.prefers_dark = p.dark;
  ui.reduced_motion = p.reduced_motion;
  ui.touch_screen = p.coarse_pointer;
}

bool deliver_export(ui::ExportKind kind) {
  ui::ExportMade made = ui::make_export(*g_lab, *g_ui, kind);
  if (!made.refusal.empty()) {
    g_ui->export_message = std::move(made.refusal);
    return false;
  }
  if (kind == ui::ExportKind::embed) {
    g_ui->export_message = page::copy(made.text_to_copy);
    return true;
  }
  ui::ExportOutcome outcome = page::save(made.file);
  g_ui->export_message = std::move(outcome.message);
  return outcome.ok;
}

void request_png() {
  g_png_requested = true;
  wake();
}

void after_frame() {
  if (std::exchange(g_png_requested, false)) deliver_export(ui::ExportKind::png);
  if (ui::stage_table_changed(*g_lab, *g_ui)) page::send_table(ui::stage_table(*g_lab, *g_ui));
  if (!g_ui->announcement.empty()) page::announce(std::exchange(g_ui->announcement, {}));
}

}  // namespace tools
