// The header's About box: what Attention Lab is, its version (the project's, from CMake), its
// license and the third-party software it ships (THIRD_PARTY_NOTICES.md).
#pragma once

#include <string>

namespace ui {

struct Memory;

// The box's text, one paragraph per line: what the box shows and attentionLab.about() returns.
std::string about_text();
// The header's "About" button (its width, to lay out the header) and the box it opens.
float about_button_width();
void about_button(Memory& ui);

}  // namespace ui
