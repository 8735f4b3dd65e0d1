// [SECTION] layout and drawing, [SECTION] PNG with text.
#include "figure.h"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "explain.h"
#include "gl.h"
#include "heatmap_layout.h"
#include "theme.h"

// stb_image_write encodes the PNG: a private copy (static functions), because the browser
// build has no system library to link against and the desktop's --screenshot has its own.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace ui {
namespace {

float text_width(ImFont* font, const std::string& text) {
  return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, text.c_str()).x;
}

// The link in lines of `per_line` characters, cut between UTF-8 characters, at most three:
// a longer link ends in "…" here (the PNG's text and the JSON export have all of it).
std::vector<std::string> link_lines(const std::string& link, int per_line) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < link.size() && lines.size() < 3) {
    std::size_t end = at;
    for (int chars = 0; end < link.size() && chars < per_line; ++chars)
      do ++end; while (end < link.size() && (link[end] & 0xC0) == 0x80);
    lines.push_back(link.substr(at, end - at));
    at = end;
  }
  if (at < link.size()) {
    std::string& last = lines.back();  // its last character gives way to the ellipsis
    while (!last.empty() && (last.back() & 0xC0) == 0x80) last.pop_back();
    if (!last.empty()) last.pop_back();
    last += "…";
  }
  return lines;
}

// Renders a draw list into a width × height image and reads it back, top row first.
void render(ImDrawList& list, int width, int height, std::vector<unsigned char>& rgba) {
  GLuint texture = 0, framebuffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  list._PopUnusedDrawCmd();
  ImDrawList* lists[] = {&list};
  ImDrawData data;
  data.Valid = true;
  data.CmdLists = lists;
  data.CmdListsCount = 1;
  data.TotalVtxCount = list.VtxBuffer.Size;
  data.TotalIdxCount = list.IdxBuffer.Size;
  data.DisplayPos = ImVec2(0, 0);
  data.DisplaySize = ImVec2(float(width), float(height));
  data.FramebufferScale = ImVec2(1, 1);
  ImGui_ImplOpenGL3_RenderDrawData(&data);  // sets (and restores) its viewport and state
  rgba.resize(std::size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  glDeleteTextures(1, &texture);
  // GL's first row is the image's bottom (the draw list's y grows downwards).
  const std::size_t stride = std::size_t(width) * 4;
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(rgba.begin() + y * stride, rgba.begin() + (y + 1) * stride, rgba.begin() + (height - 1 - y) * stride);
}

}  // namespace

// [SECTION] layout and drawing ----------------------------------------------------------------

void draw_figure(const Figure& figure, std::vector<unsigned char>& rgba, int& width, int& height) {
  const HeatmapSpec& spec = figure.spec;
  const attn::Matrix& m = *spec.values;
  const int rows = int(m.rows()), cols = int(m.cols());
  ImFont* const body = fonts().body;
  ImFont* const heading = fonts().heading;
  ImFont* const small = fonts().small;  // monospaced: cell values and the link
  const float u = body->FontSize / 16.0f, line = body->FontSize;
  const float margin = std::round(20 * u), gap = std::round(6 * u);
  const ImU32 text = ImGui::GetColorU32(ImGui::GetStyleColorVec4(ImGuiCol_Text));
  const ImU32 muted = ImGui::GetColorU32(palette().muted_text);

  TextMetrics metrics;
  metrics.width = [body](const std::string& s) { return text_width(body, s); };
  metrics.line = line;
  metrics.digit = text_width(small, "0");
  metrics.unit = u;

  // Cells by the screen's rule in a square room, but no stretch past the size cap (the figure
  // has no window to fill); whole pixels when a cell has at least two.
  const float side = kFigurePlotSide * u, cap = spec.max_cell * u;
  auto [cw, ch] = cell_extent({side, side}, {float(cols), float(rows)}, cap, cap);
  if (cw >= 2) cw = std::floor(cw);
  if (ch >= 2) ch = std::floor(ch);
  const float plot_w = std::max(1.0f, std::round(cw * cols)), plot_h = std::max(1.0f, std::round(ch * rows));

  // Labels by the screen's rule (axis_labels: a stride, the last kept); only the drawn ones
  // are measured.
  AxisSpan row_span;
  row_span.end = rows;
  row_span.cell = ch;
  row_span.hi = plot_h;
  const std::vector<AxisLabel> row_labels = axis_labels(row_span, [line](int) { return line; }, line);
  float label_w = 0;
  for (const AxisLabel& r : row_labels) label_w = std::max(label_w, text_width(body, spec.row_label(r.index)));
  const float widest = widest_label(spec.col_label, 0, cols - 1, metrics);

  // The legend: "lo [colour bar] hi", and the masked pattern when the matrix has any.
  const bool any_masked = std::any_of(m.data(), m.data() + m.size(), [](float x) { return std::isinf(x); });
  const std::string lo_text = num_rounded(spec.lo, kLegendDigits), hi_text = num_rounded(spec.hi, kLegendDigits),
                    masked_text = tr("masked (−∞)");
  const float bar_w = std::round(200 * u), bar_h = std::round(line * 0.6f), box = std::round(line);
  const float legend_w = text_width(body, lo_text) + bar_w + text_width(body, hi_text) + 2 * gap +
                         (any_masked ? 4 * gap + box + gap + text_width(body, masked_text) : 0);

  // Vertical layout: title, axes, column labels, plot, legend, link.
  const float axes_y = margin + heading->FontSize + std::round(6 * u);
  const float cols_y = axes_y + line + std::round(12 * u);
  const float plot_x = std::round(margin + label_w + gap), plot_y = std::round(cols_y + line + 4 * u);
  const float legend_y = plot_y + plot_h + std::round(12 * u);
  const float link_y = legend_y + line + std::round(14 * u);
  const float content_w = std::max({plot_x + plot_w + widest / 2 - margin, text_width(heading, figure.title),
                                    text_width(body, figure.axes), plot_x - margin + legend_w});
  const float char_w = metrics.digit;
  const std::vector<std::string> link = link_lines(figure.link, int(std::max(content_w, 560 * u) / char_w));
  float link_w = 0;
  for (const std::string& l : link) link_w = std::max(link_w, text_width(small, l));
  const float link_line = std::round(small->FontSize * 1.25f);
  width = int(std::ceil(2 * margin + std::max(content_w, link_w)));
  height = int(std::ceil(link_y + link_line * float(link.size()) + margin));

  // The matrix, the colour bar and a masked cell, painted by the interface's colormap shader.
  const render::HeatmapLook look = heatmap_look(spec);
  render::Heatmap map, bar, masked;
  map.set_values(m.data(), rows, cols, 1);
  const unsigned map_image = map.paint(int(plot_w), int(plot_h), {0, 0, float(cols), float(rows)}, look);
  constexpr int kBarSteps = 256;
  attn::Matrix ramp(1, kBarSteps);
  for (int i = 0; i < kBarSteps; ++i) ramp(0, i) = spec.lo + (spec.hi - spec.lo) * float(i) / (kBarSteps - 1);
  bar.set_values(ramp.data(), 1, kBarSteps, 1);
  const unsigned bar_image = bar.paint(int(bar_w), int(bar_h), {0, 0, float(kBarSteps), 1}, look);
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  masked.set_values(&minus_infinity, 1, 1, 1);
  const unsigned masked_image = masked.paint(int(box), int(box), {0, 0, 1, 1}, look);

  ImDrawList list(ImGui::GetDrawListSharedData());
  list._ResetForNewFrame();
  list.PushTextureID(ImGui::GetIO().Fonts->TexID);
  list.PushClipRect(ImVec2(0, 0), ImVec2(float(width), float(height)));
  const float* bg = palette().background;
  list.AddRectFilled(ImVec2(0, 0), ImVec2(float(width), float(height)), ImGui::GetColorU32(ImVec4(bg[0], bg[1], bg[2], 1)));
  list.AddText(heading, heading->FontSize, ImVec2(margin, margin), text, figure.title.c_str());
  list.AddText(body, line, ImVec2(margin, axes_y), muted, figure.axes.c_str());
  // Columns may reach from the content's left edge to half the widest label past the plot
  // (the width above makes room for it).
  AxisSpan col_span;
  col_span.end = cols;
  col_span.cell = cw;
  col_span.lo = margin - plot_x;
  col_span.hi = plot_w + widest / 2;
  col_span.gap = gap;
  const auto col_width = [&](int c) { return text_width(body, spec.col_label(c)); };
  for (const AxisLabel& c : axis_labels(col_span, col_width, widest))
    list.AddText(body, line, ImVec2(std::round(plot_x + c.at), cols_y), muted, spec.col_label(c.index).c_str());
  for (const AxisLabel& r : row_labels) {
    const std::string label = spec.row_label(r.index);
    list.AddText(body, line, ImVec2(std::round(plot_x - gap - text_width(body, label)), std::round(plot_y + r.at)), muted,
                 label.c_str());
  }
  list.AddImage(gl_texture(map_image), ImVec2(plot_x, plot_y), ImVec2(plot_x + plot_w, plot_y + plot_h));
  // Values when every number fits its cell (the screen's rule): at most a few thousand strings,
  // since a legible cell is several characters wide.
  const int max_chars = value_chars({cw, ch}, metrics);
  std::vector<std::string> values;
  if (max_chars >= kLeastValueChars && nums_fit(m, 0, rows, 0, cols, max_chars, values))
    for (int r = 0, i = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::string& value = values[std::size_t(i++)];
        const ImVec2 size = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, value.c_str());
        list.AddText(small, small->FontSize,
                     ImVec2(std::round(plot_x + c * cw + (cw - size.x) / 2), std::round(plot_y + r * ch + (ch - size.y) / 2)),
                     cell_text_colour(spec, m(r, c)), value.c_str());
      }
  float x = plot_x;
  list.AddText(body, line, ImVec2(x, legend_y), text, lo_text.c_str());
  x += text_width(body, lo_text) + gap;
  const float bar_y = std::round(legend_y + (line - bar_h) / 2);
  list.AddImage(gl_texture(bar_image), ImVec2(x, bar_y), ImVec2(x + bar_w, bar_y + bar_h));
  x += bar_w + gap;
  list.AddText(body, line, ImVec2(x, legend_y), text, hi_text.c_str());
  if (any_masked) {
    x += text_width(body, hi_text) + 4 * gap;
    list.AddImage(gl_texture(masked_image), ImVec2(x, legend_y), ImVec2(x + box, legend_y + box));
    list.AddRect(ImVec2(x, legend_y), ImVec2(x + box, legend_y + box), muted);
    list.AddText(body, line, ImVec2(x + box + gap, legend_y), text, masked_text.c_str());
  }
  for (std::size_t i = 0; i < link.size(); ++i)
    list.AddText(small, small->FontSize, ImVec2(margin, link_y + link_line * float(i)), muted, link[i].c_str());
  render(list, width, height, rgba);
}

// [SECTION] PNG with text ---------------------------------------------------------------------

std::string encode_png(const std::vector<unsigned char>& rgba, int width, int height,
                       const std::vector<std::pair<std::string, std::string>>& text) {
  std::string png;
  stbi_write_png_to_func(
      [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<const char*>(data), size); },
      &png, width, height, 4, rgba.data(), width * 4);
  if (png.size() < 33) return png;
  // iTXt: keyword, NUL, not compressed (0, 0), no language tag (NUL), no translated keyword
  // (NUL), then the UTF-8 text; placed after IHDR (the 8-byte signature and its 25 bytes).
  std::string chunks;
  for (const auto& [keyword, value] : text) {
    std::string chunk = "iTXt" + keyword + std::string(5, '\0') + value;
    const auto be32 = [](std::uint32_t x) {
      return std::string{char(x >> 24), char(x >> 16), char(x >> 8), char(x)};
    };
    const std::uint32_t crc = stbiw__crc32(reinterpret_cast<unsigned char*>(chunk.data()), int(chunk.size()));
    chunks += be32(std::uint32_t(chunk.size() - 4)) + chunk + be32(crc);
  }
  png.insert(33, chunks);
  return png;
}

}  // namespace ui
