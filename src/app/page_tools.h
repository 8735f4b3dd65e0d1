// Export and accessibility between the interface and its platform: the Export menu's files
// delivered through page_bridge.h (a download or a file, the clipboard), what the platform
// offers and the reader's system settings (dark scheme, reduced motion, a finger's pointer),
// and the screen-reader mirror of the current stage sent to the page after each frame. The
// page's calls come in through page_api.cpp.
#pragma once

#include "export.h"
#include "lab.h"
#include "ui.h"

namespace tools {

// Reads what the platform offers and the system settings into `ui`; keeps both for the
// functions below.
void attach(const lab::Lab& lab, ui::Memory& ui);
// Makes an export (ui::make_export) and delivers it: a file saved, or the embed code copied;
// the Export menu shows the outcome. True when it was handed over (--export's exit status).
bool deliver_export(ui::ExportKind kind);
// The page's Export → PNG: exported after the next drawn frame, the heatmap as last painted
// (the app draws on demand, so a state set just before is not painted yet).
void request_png();
// After each drawn frame: the current stage's table and the focused cell's announcement to the
// page, and a PNG export the page asked for.
void after_frame();

}  // namespace tools
