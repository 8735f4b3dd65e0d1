// A matrix drawn as a heatmap: its values live in a float texture and a colormap shader
// paints the visible part into an offscreen colour texture that the interface shows as an
// image. Uploads happen only when the data changes and painting only when the picture
// does, so a 2048 × 2048 matrix pans and zooms smoothly.
#pragma once

#include <cstdint>

namespace render {

enum class Colormap { sequential, diverging };

struct HeatmapLook {
  Colormap map = Colormap::sequential;
  float lo = 0, hi = 1;          // the values at the two ends of the colormap
  float dim = 0;                 // 0 = full colour, 1 = background
  float background[3] = {1, 1, 1};
  float hatch[3] = {0.5f, 0.5f, 0.5f};
  bool operator==(const HeatmapLook& o) const;
};

// The visible rectangle in cell units (columns x, rows y).
struct CellRect {
  float x0 = 0, y0 = 0, x1 = 1, y1 = 1;
  bool operator==(const CellRect& o) const {
    return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1;
  }
};

// How many times any heatmap has painted its picture: a frame that draws the same lists as the
// last one shows something new when this changed (the app's ShownFrame).
std::uint64_t paints();

class Heatmap {
 public:
  Heatmap() = default;
  Heatmap(const Heatmap&) = delete;
  Heatmap& operator=(const Heatmap&) = delete;
  ~Heatmap();

  // Row-major rows × cols; uploaded again only when `version` or the size changes.
  void set_values(const float* values, int rows, int cols, std::uint64_t version);
  // Paints `view` into a width × height pixel image; returns its GL texture name.
  unsigned paint(int width, int height, const CellRect& view, const HeatmapLook& look);

 private:
  unsigned values_ = 0, image_ = 0, framebuffer_ = 0;
  int rows_ = 0, cols_ = 0, width_ = 0, height_ = 0;
  std::uint64_t version_ = ~0ull;
  bool painted_ = false;
  CellRect painted_view_;
  HeatmapLook painted_look_;
};

}  // namespace render
