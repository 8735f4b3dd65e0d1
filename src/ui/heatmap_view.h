// A heatmap as an ImGui widget: the GL-painted matrix plus axis labels, the selected row's
// outline, cell values when cells are big enough, a colour legend, and pan/zoom (Ctrl+wheel,
// a pinch, a drag) when the matrix is too large to show every cell.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <imgui.h>

#include "heatmap.h"
#include "heatmap_layout.h"
#include "reference.h"

namespace ui {

// The significant digits of a colour scale's ends, on screen and in an exported picture.
inline constexpr int kLegendDigits = 3;

struct HeatmapSpec {
  const attn::Matrix* values = nullptr;
  std::uint64_t version = 0;  // changes whenever *values does
  // A sequential map spans lo … hi; a diverging one is always centred on zero over
  // ±max|x| of the finite values, measured once per version (not every frame).
  render::Colormap map = render::Colormap::sequential;
  float lo = 0, hi = 1;
  // A diverging map's half-width when above 0 (a figure that keeps one colour scale while its
  // values shrink, so they fade on screen); 0: ±max|x|.
  float bound = 0;
  std::function<std::string(int)> row_label, col_label;
  int highlight_row = -1;
  // Where the whole matrix gives a row less than a line (a label each would not fit), it first
  // shows as many rows and columns as give each a line: the rows around highlight_row (the last
  // row if none), the columns around that row's largest value; and pans so again whenever
  // highlight_row changes. A pinch or double-click shows all.
  bool zoom_to_read = false;
  int focus_row = -1, focus_col = -1;  // the keyboard's cell (accessibility.h), ringed and kept in view
  bool dimmed = false;
  bool paints = false;  // clicks toggle cells (the mask's paint mode): a touch drag does not scroll
  // A picture only: no item, so no hover, click, zoom or readout, and a finger on it scrolls the
  // page (cells too small for a finger; what they hold is read elsewhere in the figure).
  bool picture = false;
  const char* title = nullptr;  // its name in the layout (input/item_layout.h); the id if none
  float max_cell = kMaxCell;  // cell size cap in unscaled pixels (heatmap_layout.h)
  float height = 0;     // height available for the plot (labels and legend excluded)
};

struct HeatmapHit {
  int row = -1, col = -1;  // the hovered cell, or -1
  bool clicked = false;
  ImVec2 min, max;         // the whole widget, labels and legend: where its readout does not go
};

class HeatmapView {
 public:
  HeatmapHit draw(const char* id, const HeatmapSpec& spec);
  // The spec as last drawn, with the range its colours used (export.cpp draws the same
  // matrix as a figure); nullptr before the first draw.
  const HeatmapSpec* shown() const { return shown_.values ? &shown_ : nullptr; }

 private:
  struct Placed;
  static TextMetrics text_metrics();
  void measure(const HeatmapSpec& spec);
  void pan_and_zoom(const Placed& at, const HeatmapSpec& spec, bool zoomable, bool hovered);
  // HeatmapSpec::zoom_to_read, from the cell the layout gave (`reshaped`: the whole matrix's).
  // True when it changed the view.
  bool zoom_to_read(const HeatmapSpec& spec, float cell, const TextMetrics& text, bool reshaped);
  void draw_labels(const Placed& at, const HeatmapSpec& spec, const TextMetrics& text);
  // True when it wrote the cells' values.
  bool draw_cells(const Placed& at, const HeatmapSpec& spec, const TextMetrics& text, const HeatmapHit& hit) const;
  void draw_legend(const Placed& at, const HeatmapSpec& spec, const HeatmapLayoutInput& in, const TextMetrics& text);

  HeatmapSpec shown_;
  render::Heatmap map_;
  render::Heatmap legend_;
  render::CellRect view_;
  int rows_ = 0, cols_ = 0;
  int read_row_ = -1;  // the row zoom_to_read last kept in view
  // Measured once per version of the values, not every frame (O(n²) at n = 2048).
  float bound_ = 1;                        // the diverging range's half-width
  bool any_masked_ = false;                // whether any value is −∞ (the legend's hatch)
  std::uint64_t measured_version_ = ~0ull;  // the values' version they were measured on
  // The labels this frame shows (for layout(): input/item_layout.h), storage kept across frames.
  std::vector<std::string> row_labels_, col_labels_;
};

// A painted image's GL texture name as Dear ImGui's texture id (its OpenGL 3 backend's).
ImTextureID gl_texture(unsigned name);

// A heatmap's picture over [min, max] of the window: `values` (rows × cols, uploaded again only
// when `version` changes) painted through `view` in `look` and drawn tinted by `tint`. Outside
// the window's clip rectangle it is neither uploaded nor painted (a stale picture is clipped
// anyway): without a GPU each was a pass of the renderer's.
void draw_heatmap(render::Heatmap& map, const float* values, int rows, int cols, std::uint64_t version, ImVec2 min,
                  ImVec2 max, const render::CellRect& view, const render::HeatmapLook& look,
                  ImU32 tint = IM_COL32_WHITE);

// The shader's settings for a spec (its map, range and the theme's background), and the
// colour of a value's text drawn over its cell: shared by the widget and the exported figure.
render::HeatmapLook heatmap_look(const HeatmapSpec& spec);
unsigned cell_text_colour(const HeatmapSpec& spec, float x);  // an ImU32

}  // namespace ui
