#include "heatmap_layout.h"

#include <algorithm>
#include <cmath>

namespace ui {

Extent cell_extent(Extent room, Extent cells, float cap, float stretch_cap) {
  const float square = std::max(std::min({room.w / cells.w, room.h / cells.h, cap}), 0.02f);
  return {std::max(square, std::min(stretch_cap, room.w / 3 / cells.w)),
          std::max(square, std::min(stretch_cap, room.h / 3 / cells.h))};
}

int label_stride(float label, float cell) { return std::max(1, int(std::ceil(label / cell))); }

std::vector<AxisLabel> axis_labels(const AxisSpan& span, const std::function<float(int)>& extent, float widest) {
  std::vector<AxisLabel> shown;
  if (span.end <= span.first) return shown;
  const int every = label_stride(widest + span.gap, span.cell);
  auto place = [&](int i) {
    if (i < span.first || i >= span.end) return;
    const float e = extent(i);
    const float centre = span.start + (float(i - span.first) + 0.5f) * span.cell;
    const float at = std::max(span.lo, std::min(centre - e / 2, span.hi - e));
    for (const AxisLabel& l : shown)
      if (at < l.at + extent(l.index) + span.gap && l.at < at + e + span.gap) return;  // they would touch
    shown.push_back({i, at});
  };
  place(span.keep);
  place(span.end - 1);
  for (int i = span.first; i < span.end; i += every) place(i);
  // Then every other label that still has room (labels of unequal widths, like words: the
  // stride is the widest's, and shorter ones fit between).
  if (every > 1 && span.end - span.first <= kFilledLabels)
    for (int i = span.first; i < span.end; ++i)
      if (std::none_of(shown.begin(), shown.end(), [i](const AxisLabel& l) { return l.index == i; })) place(i);
  std::sort(shown.begin(), shown.end(), [](const AxisLabel& a, const AxisLabel& b) { return a.index < b.index; });
  return shown;
}

float widest_label(const std::function<std::string(int)>& label, int first, int last, const TextMetrics& text) {
  float widest = text.width(label(last));
  for (int c = first; c < std::min(last + 1, first + 64); ++c) widest = std::max(widest, text.width(label(c)));
  return widest;
}

int value_chars(Extent cell, const TextMetrics& text) {
  return cell.h < text.line ? 0 : int((cell.w - 4 * text.unit) / text.digit);
}

HeatmapLayout heatmap_layout(const HeatmapLayoutInput& in, const TextMetrics& text) {
  HeatmapLayout l;
  const float u = text.unit, line = text.line;
  // Room for every row label: the first ones and the last, the longest index.
  for (int i = 0; i < std::min(in.rows, 64); ++i) l.label_w = std::max(l.label_w, text.width(in.row_label(i)));
  l.label_w = std::max(l.label_w, text.width(in.row_label(in.rows - 1)));
  l.label_w += 8 * u;
  const float avail_w = in.room.w - l.label_w;
  // The legend is one line, "lo [colour bar] hi  ▨ masked", or two when that does not fit.
  l.gap = 6 * u;
  const float min_bar = 60 * u;
  const float lo_w = text.width(in.lo), hi_w = text.width(in.hi);
  const float masked_w = line + l.gap + text.width(in.masked);
  const float scale_w = lo_w + hi_w + 2 * l.gap + min_bar;
  const float stub = 24 * u;
  l.legend_stacked = lo_w + hi_w + 2 * l.gap + stub > avail_w;
  l.legend_wraps = in.any_masked && (l.legend_stacked || scale_w + 3 * l.gap + masked_w > avail_w);
  l.bar_h = line * 0.55f;
  const float scale_h = l.legend_stacked ? l.bar_h + 2 * u + line : line;
  const float legend_h = 0.6f * line + scale_h + (l.legend_wraps ? 1.2f * line : 0);
  l.top = line * 1.4f;
  const float avail_h = std::max(in.room.h - l.top - legend_h, 24.0f * u);
  l.cell = cell_extent({avail_w, avail_h}, in.shown, in.max_cell * u, INFINITY);
  l.plot = {std::floor(l.cell.w * in.shown.w), std::floor(l.cell.h * in.shown.h)};

  // The legend's parts from the plot's left; its line from the plot's top.
  l.legend_y = l.plot.h + line * 0.45f;
  if (l.legend_stacked) {
    // The bar under the labels and the plot, or as wide as both ends need, within the card;
    // "lo" under its start, "hi" under its end.
    l.bar_x = l.lo_x = -l.label_w;
    l.bar_w = std::min(std::max(l.label_w + l.plot.w, lo_w + hi_w + l.gap), in.room.w);
    l.bar_y = l.legend_y;
    l.text_y = l.bar_y + l.bar_h + 2 * u;
    l.hi_x = l.bar_x + std::max(l.bar_w - hi_w, lo_w + l.gap);
    l.legend_w = std::max(l.bar_x + l.bar_w, l.hi_x + hi_w);
  } else {
    // At least min_bar wide where the room allows; in a narrow card, what is left beside "lo"
    // and "hi" (down to a stub), so that "hi" is not cut at the card's edge.
    const float least_bar = std::clamp(avail_w - lo_w - hi_w - 2 * l.gap, stub, min_bar);
    l.bar_w = std::clamp(l.plot.w - lo_w - hi_w - 2 * l.gap, least_bar, 160 * u);
    if (in.any_masked && !l.legend_wraps)
      l.bar_w = std::max(min_bar, std::min(l.bar_w, avail_w - scale_w + min_bar - 3 * l.gap - masked_w));
    l.bar_x = lo_w + l.gap;
    l.bar_y = l.legend_y + (line - l.bar_h) * 0.5f;
    l.text_y = l.legend_y;
    l.hi_x = l.bar_x + l.bar_w + l.gap;
    l.legend_w = lo_w + hi_w + 2 * l.gap + l.bar_w;
  }
  l.masked_x = l.legend_wraps ? 0 : l.legend_w + 3 * l.gap;
  l.masked_y = l.legend_wraps ? l.text_y + line * 1.25f : l.legend_y;
  l.size = {l.label_w + std::max(l.plot.w, l.legend_w), l.top + l.plot.h + legend_h};
  return l;
}

}  // namespace ui
