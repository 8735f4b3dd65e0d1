#include "about.h"

#include <imgui.h>

#include <algorithm>

#include "i18n.h"
#include "theme.h"
#include "ui.h"
#include "version.h"  // generated from CMakeLists.txt's project version

namespace ui {

std::string about_text() {
  return i18n::format(
      tr("Attention Lab %s\n"
         "Scaled dot-product attention, softmax(QKᵀ/√d_k)·V, step by step, with the experiments that explain it.\n"
         "Copyright (c) Attention Lab contributors. Released under the MIT License: see the file LICENSE.\n"
         "It includes Dear ImGui %s (MIT), Eigen (MPL-2.0), nlohmann/json (MIT), subsets of the DejaVu fonts "
         "(Bitstream Vera license), GLFW (zlib; the desktop app) and, in the browser, Emscripten's runtime (MIT). "
         "Their notices and license texts are in the file THIRD_PARTY_NOTICES.md, beside this page and in the "
         "source."),
      ATTN_VERSION, IMGUI_VERSION);
}

float about_button_width() { return ImGui::CalcTextSize(tr("About")).x + ImGui::GetStyle().FramePadding.x * 2; }

void about_button(Memory& ui) {
  if (ImGui::Button(tr("About##about"))) {
    ImGui::OpenPopup("about");
    ui.announcement = about_text();  // screen readers hear what the canvas shows
  }
  if (!ImGui::BeginPopup("about")) return;
  // A phone's screen may be narrower than the box's usual width.
  const float width = std::min(460 * ui_scale(), ImGui::GetMainViewport()->Size.x - 4 * ImGui::GetFontSize());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  const std::string text = about_text();
  for (std::size_t start = 0, end = 0; start < text.size(); start = end + 1) {
    end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    if (start == 0) {  // the name and version, as the header's title
      ImGui::PushFont(fonts().heading);
      ImGui::TextUnformatted(line.c_str());
      ImGui::PopFont();
    } else {
      ImGui::Spacing();
      ImGui::TextWrapped("%s", line.c_str());
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndPopup();
}

}  // namespace ui
