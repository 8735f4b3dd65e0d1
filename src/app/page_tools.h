// Export and accessibility between the interface and its platform: ui::Memory's services
// (save, copy, open) connected to page_bridge.h's platform calls, the reader's system
// settings (dark scheme, reduced motion, a finger's pointer), and the screen-reader mirror of
// the current stage sent to the page after each frame. The page's calls come in through
// page_api.cpp.
#pragma once

#include "lab.h"
#include "ui.h"

namespace tools {

// Connects `ui`'s export to this platform and reads the system settings; keeps both for
// after_frame().
void attach(const lab::Lab& lab, ui::Memory& ui);
// The page's Export → PNG: exported after the next drawn frame, the heatmap as last painted
// (the app draws on demand, so a state set just before is not painted yet).
void request_png();
// After each drawn frame: the current stage's table and the focused cell's announcement to the
// page, and a PNG export the page asked for.
void after_frame();

}  // namespace tools
