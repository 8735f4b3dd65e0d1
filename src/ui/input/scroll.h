// Scrolling and zooming at a point of the screen, asked between frames: what the browser's
// wheel, a swipe, its momentum and a pinch do. (Dear ImGui 1.86 scrolls only with its own
// wheel, under the mouse; natively the app leaves the wheel to it and takes only Ctrl+wheel.)
// Points and distances are in the framebuffer's pixels, as ImGui's.
#pragma once

#include <imgui.h>

#include <optional>

namespace ui::input {

// Scrolls the innermost region under `at` that can move in the direction of `delta`
// (positive: further down or right, as a wheel turned towards you), then the regions around
// it with what is left. Returns how far the content moved: zero where nothing under `at`
// could move that way (at its end: the page around an embedded lab may scroll instead).
ImVec2 scroll_at(ImVec2 at, ImVec2 delta);

// A zoom of the heatmap under `at` by `factor` (below 1: closer), panned by `pan` pixels (a
// pinch's midpoint moving). False where no zoomable heatmap is under `at`.
bool zoom_at(ImVec2 at, float factor, ImVec2 pan = {});

struct Zoom {
  ImVec2 at;
  float factor = 1;
  ImVec2 pan;
};
// The zoom asked for since the last frame if its point lies in [min, max) (the heatmap being
// drawn there), taken once.
std::optional<Zoom> take_zoom(ImVec2 min, ImVec2 max);

}  // namespace ui::input
