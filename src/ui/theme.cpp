#include "theme.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "fonts.h"
#include "glyph_ranges.h"  // Latin-1 and the characters the messages use (cmake/glyphs.py)

namespace ui {
namespace {
Palette g_palette;
Fonts g_fonts;

// A TrueType font's em per unit of Dear ImGui's size (stb_truetype's ScaleForPixelHeight: the
// hhea table's ascender minus descender), from its 'head' and 'hhea' tables.
float em_per_size(const unsigned char* ttf) {
  auto u16 = [](const unsigned char* p) { return unsigned(p[0]) << 8 | p[1]; };
  auto s16 = [&](const unsigned char* p) { return int(std::int16_t(u16(p))); };
  const unsigned char *head = nullptr, *hhea = nullptr;
  for (unsigned i = 0, n = u16(ttf + 4); i < n; ++i) {
    const unsigned char* record = ttf + 12 + 16 * i;
    const unsigned offset = unsigned(u16(record + 8)) << 16 | u16(record + 10);
    if (!std::memcmp(record, "head", 4)) head = ttf + offset;
    if (!std::memcmp(record, "hhea", 4)) hhea = ttf + offset;
  }
  if (!head || !hhea) return 1;
  return float(u16(head + 18)) / float(s16(hhea + 4) - s16(hhea + 6));
}

ImVec4 rgb(int hex, float a = 1.0f) {
  return ImVec4(((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, a);
}

// A theme's colours, 0xRRGGBB: the palette's, and ImGui's for the window, text, frames
// (rest, hovered, active), buttons (likewise) and popups; the heatmap's background and hatch
// as the shaders take them.
struct ThemeColors {
  int accent, muted_text, card, card_border, highlight, note;
  int window, text, frame[3], button[3], popup;
  float background[3], hatch[3];
};
constexpr ThemeColors kDark{0x7aa2f7, 0x9aa5b1, 0x1f2430, 0x343b4a, 0xffb454, 0x4a3b1c,
                            0x171a21, 0xe6e9ef, {0x2a3140, 0x343d50, 0x3d4760}, {0x2d3545, 0x3b4760, 0x4a5878}, 0x232936,
                            {0.122f, 0.141f, 0.188f}, {0.42f, 0.45f, 0.52f}};
constexpr ThemeColors kLight{0x2f5fd0, 0x5f6b7a, 0xffffff, 0xd9dee7, 0xe8590c, 0xfff3cd,
                             0xf4f6fa, 0x1d2330, {0xe9edf4, 0xdde4f0, 0xd0d9ea}, {0xe3e8f1, 0xd3dbea, 0xc2cde3}, 0xffffff,
                             {1.0f, 1.0f, 1.0f}, {0.62f, 0.65f, 0.70f}};
}  // namespace

Fonts& fonts() { return g_fonts; }
const Palette& palette() { return g_palette; }

void load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the data is a constant array in the program
  // One horizontal sample: rasterising the atlas was a quarter of the first frame, and
  // glyphs are drawn at whole pixels anyway.
  config.OversampleH = 1;
  config.PixelSnapH = true;
  auto add = [&](const unsigned char* data, std::size_t size, float px) {
    return io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(data), int(size), px * scale,
                                          &config, kGlyphRanges);
  };
  g_fonts.body = add(DejaVuSans_ttf, DejaVuSans_ttf_size, kBodyFontPx);
  g_fonts.heading = add(DejaVuSans_Bold_ttf, DejaVuSans_Bold_ttf_size, 19.0f);
  g_fonts.mono = add(DejaVuSansMono_ttf, DejaVuSansMono_ttf_size, 15.0f);
  const float cell_size = kCellTextEm / em_per_size(DejaVuSansMono_ttf);
  g_fonts.small = add(DejaVuSansMono_ttf, DejaVuSansMono_ttf_size, cell_size);
  g_fonts.small_em = kCellTextEm * scale;
  io.Fonts->Build();
}

void apply_theme(bool dark, float scale, bool touch) {
  ImGuiStyle style;
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(10, 8);
  style.ItemInnerSpacing = ImVec2(6, 6);
  style.CellPadding = ImVec2(4, 3);
  style.WindowRounding = 0;
  style.ChildRounding = 6;
  style.FrameRounding = 5;
  style.GrabRounding = 5;
  style.PopupRounding = 6;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.ScrollbarSize = 12;
  style.ScrollbarRounding = 6;
  if (touch) {
    // A finger needs targets about 40 CSS pixels tall (the 16-pixel font's line plus the
    // padding), and scrollbars and grabs it can hit.
    style.FramePadding = ImVec2(10, 12);
    style.ItemSpacing = ImVec2(10, 10);
    style.ScrollbarSize = 18;
    style.GrabMinSize = 24;
    style.TouchExtraPadding = ImVec2(2, 2);
  }

  Palette p;
  p.dark = dark;
  const ThemeColors& k = dark ? kDark : kLight;
  p.accent = rgb(k.accent);
  p.muted_text = rgb(k.muted_text);
  p.card = rgb(k.card);
  p.card_border = rgb(k.card_border);
  p.highlight = rgb(k.highlight);
  p.note = rgb(k.note);
  std::copy(k.background, k.background + 3, p.background);
  std::copy(k.hatch, k.hatch + 3, p.hatch);
  ImVec4* c = style.Colors;
  c[ImGuiCol_WindowBg] = rgb(k.window);
  c[ImGuiCol_ChildBg] = p.card;
  c[ImGuiCol_Text] = rgb(k.text);
  c[ImGuiCol_FrameBg] = rgb(k.frame[0]);
  c[ImGuiCol_FrameBgHovered] = rgb(k.frame[1]);
  c[ImGuiCol_FrameBgActive] = rgb(k.frame[2]);
  // A selectable's header looks like a button.
  c[ImGuiCol_Button] = c[ImGuiCol_Header] = rgb(k.button[0]);
  c[ImGuiCol_ButtonHovered] = c[ImGuiCol_HeaderHovered] = rgb(k.button[1]);
  c[ImGuiCol_ButtonActive] = c[ImGuiCol_HeaderActive] = rgb(k.button[2]);
  c[ImGuiCol_Border] = p.card_border;
  c[ImGuiCol_Separator] = p.card_border;
  c[ImGuiCol_CheckMark] = p.accent;
  c[ImGuiCol_SliderGrab] = p.accent;
  c[ImGuiCol_PopupBg] = rgb(k.popup);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  g_palette = p;
}

void begin_readout() {
  ImGui::BeginTooltip();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::GetMainViewport()->Size.x - 2 * (style.DisplaySafeAreaPadding.x + style.WindowPadding.x);
  ImGui::PushTextWrapPos(std::max(room, 8 * ImGui::GetFontSize()));  // from the tooltip's own left edge
}

void end_readout() {
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void end_readout(ImVec2 away_min, ImVec2 away_max) {
  ImGui::PopTextWrapPos();
  // Dear ImGui placed the tooltip beside the pointer when it began, and sized it for this frame
  // (its first frame, still unsized, is hidden): move it down or up, with what it has drawn.
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const ImGuiViewport* screen = ImGui::GetMainViewport();
  const float pad = ImGui::GetStyle().DisplaySafeAreaPadding.y, gap = 4 * ui_scale(), h = w->Size.y;
  float to = w->Pos.y;
  if (away_max.y + gap + h <= screen->Pos.y + screen->Size.y - pad) to = away_max.y + gap;
  else if (away_min.y - gap - h >= screen->Pos.y + pad) to = away_min.y - gap - h;
  const float by = to - w->Pos.y;
  if (h > 0 && by != 0) {
    ImDrawList* draw = w->DrawList;
    for (ImDrawVert& v : draw->VtxBuffer) v.pos.y += by;
    for (ImDrawCmd& c : draw->CmdBuffer) c.ClipRect.y += by, c.ClipRect.w += by;
    for (ImVec4& r : draw->_ClipRectStack) r.y += by, r.w += by;
    draw->_CmdHeader.ClipRect.y += by, draw->_CmdHeader.ClipRect.w += by;
    w->Pos.y += by;  // where layout() finds it
  }
  ImGui::EndTooltip();
}

}  // namespace ui
