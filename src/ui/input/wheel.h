// A browser's wheel event as a scroll distance: the same path for a mouse wheel (one notch:
// 100 pixels in Chromium, 3 lines in Firefox) and a trackpad (a stream of small pixel deltas),
// so that each moves the content as far as it would move a web page. Pure arithmetic, tested
// natively (tests/unit/input_test.cpp); the browser's events reach it in src/app/web_input.cpp.
#pragma once

namespace ui::input {

// WheelEvent.deltaMode.
enum class WheelMode { pixel = 0, line = 1, page = 2 };

struct WheelEvent {
  double dx = 0, dy = 0;  // as the DOM gives them: positive right and down
  WheelMode mode = WheelMode::pixel;
  bool shift = false, ctrl = false;
};

// One line of a line-mode wheel, in CSS pixels: three lines (Firefox's notch) scroll as far as
// Chromium's 100-pixel notch.
inline constexpr double kLinePixels = 100.0 / 3.0;

struct WheelScroll {
  double x = 0, y = 0;  // how far to scroll, CSS pixels, positive right and down
  double zoom = 1;      // Ctrl+wheel (a trackpad's pinch in Chromium): the factor for a heatmap's view
};

// `page_height`: the CSS height that one page-mode step scrolls (the region under the pointer).
WheelScroll wheel_scroll(const WheelEvent& e, double page_height);

}  // namespace ui::input
