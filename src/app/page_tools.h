// Export and accessibility between the interface and its platform: where exported files and
// copied text go (a file beside the working directory and ImGui's clipboard natively; a
// download and navigator.clipboard in the browser), the reader's system settings (dark
// scheme, reduced motion) and the screen-reader mirror of the current stage in the page.
// In the browser web/page-tools.js is the other side; its calls come in through page_api.cpp.
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
