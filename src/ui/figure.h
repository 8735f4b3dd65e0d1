// A heatmap as a figure that stands alone in notes or slides: a title, what the rows and
// columns are, their labels (tokens where there are tokens), the values in the cells when they
// are legible, the colour scale with its range and the configuration's link. It is drawn with
// the interface's fonts into an offscreen image and encoded as a PNG that also carries the
// title and the link as text.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "heatmap_view.h"

namespace ui {

struct Figure {
  std::string title, axes, link;  // axes: e.g. "rows: queries · columns: keys"
  HeatmapSpec spec;               // the matrix, its colours and labels, as the screen shows them
};

// Largest plot side in unscaled pixels: a matrix of any size (n up to 2048) gives a bounded
// image; bigger matrices are sampled one pixel per cell row/column shown.
inline constexpr float kFigurePlotSide = 720;

// Draws the figure (RGBA, top row first); needs the GL context and ImGui's fonts.
void draw_figure(const Figure& figure, std::vector<unsigned char>& rgba, int& width, int& height);
// The pixels as PNG bytes, with one uncompressed iTXt chunk (UTF-8 text) per keyword and text.
std::string encode_png(const std::vector<unsigned char>& rgba, int width, int height,
                       const std::vector<std::pair<std::string, std::string>>& text);

}  // namespace ui
