#include "wheel.h"

#include <cmath>
#include <utility>

namespace ui::input {

WheelScroll wheel_scroll(const WheelEvent& e, double page_height) {
  const double unit = e.mode == WheelMode::line ? kLinePixels : e.mode == WheelMode::page ? page_height : 1.0;
  double x = e.dx * unit, y = e.dy * unit;
  WheelScroll out;
  if (e.ctrl) {
    // One notch closer is the view 0.85 times as wide, as the desktop's Ctrl+wheel; a pinch's
    // small deltas zoom in proportion.
    out.zoom = std::pow(0.85, -y / 100.0);
    return out;
  }
  // Shift turns a vertical wheel sideways (what a horizontal one, or a trackpad, sends itself).
  if (e.shift && x == 0) std::swap(x, y);
  out.x = x;
  out.y = y;
  return out;
}

}  // namespace ui::input
