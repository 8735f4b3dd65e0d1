// Touch as a person expects it on a phone or a tablet, over an interface that Dear ImGui 1.86
// only knows as a mouse: a one-finger drag scrolls the region under it (with momentum that a
// new touch stops); on a control that drags (a slider, a map), only a sideways drag or a
// press held first moves the control, and an upright swipe still scrolls; a tap clicks and two taps
// double-click; two fingers pinch-zoom and pan a heatmap. Where the region cannot move the way
// a swipe goes (an embedded lab at its top or bottom), the swipe and its momentum go to the
// page around the lab (overscroll), so a lesson never traps the reader.
//
// The lab takes every touch from the browser: Chromium sends a page the moves of a touch only
// once its touchstart was cancelled (its headless gestures, at least, send none otherwise), so
// the page's own scrolling cannot be the fallback; overscroll replaces it.
//
// No ImGui and no browser here: the recognizer works on points and times and acts through a
// TouchTarget (the app's, src/app/web_input.cpp), so its rules are tested natively.
#pragma once

#include <deque>
#include <map>
#include <utility>

namespace ui::input {

struct Point {
  float x = 0, y = 0;
};

// What the recognizer asks of the screen, and does to it.
class TouchTarget {
 public:
  virtual ~TouchTarget() = default;
  // How a control under `p` takes a one-finger drag: not at all (the drag scrolls); `at_once`
  // (a spot dragged any way: the geometry plane's arrow tips); or `sideways` (a slider, a
  // draggable value, a zoomed heatmap that pans, a mask being painted: only a sideways drag or
  // a press held first, so that an upright swipe starting on it still scrolls the page).
  enum class Grab { none, at_once, sideways };
  virtual Grab grabs(Point p) = 0;
  // Scrolls the region under `at` by `delta` (positive: further down or right); returns how far
  // the content moved.
  virtual Point scroll(Point at, Point delta) = 0;
  // Zooms the heatmap under `at` by `factor` (below 1: closer), panned by `pan`; false if none.
  virtual bool zoom(Point at, float factor, Point pan) = 0;
  // The mouse the interface sees: moved to `p`, its button down or up.
  virtual void pointer(Point p, bool down) = 0;
  // A click at `p` (a double-click when `twice`).
  virtual void tap(Point p, bool twice) = 0;
  // What the lab could not scroll: for the page around it.
  virtual void overscroll(Point delta) = 0;
  // The last finger lifted: the interface's mouse leaves with it, so nothing stays hovered
  // (a tooltip of the control tapped, or of what a swipe started on).
  virtual void lift() = 0;
};

class Touch {
 public:
  // `scale`: device pixels per CSS pixel (distances below are CSS pixels times it).
  explicit Touch(float scale = 1) : scale_(scale) {}
  void set_scale(float scale) { scale_ = scale; }

  // `t` in seconds.
  void start(int id, Point p, double t, TouchTarget& target);
  void move(int id, Point p, double t, TouchTarget& target);
  void end(int id, Point p, double t, TouchTarget& target);
  void cancel(TouchTarget& target);

  // A frame: momentum after a swipe. True while the content still glides.
  bool advance(double t, TouchTarget& target);
  bool gliding() const { return gliding_; }

  // How far a finger moves before a touch is a swipe rather than a tap, CSS pixels.
  static constexpr float kSlop = 8;
  // Momentum's decay time, seconds, and the speed where it stops, CSS pixels a second.
  static constexpr double kGlideTau = 0.325, kGlideStop = 20;
  // A finger that has not moved for this long (seconds) before it lifts had stopped: no glide,
  // as on a phone. Otherwise the glide's speed is the finger's over its last kSpeedWindow.
  static constexpr double kStillTime = 0.05, kSpeedWindow = 0.1;
  // A finger resting this long (seconds) on a control that drags takes the control, whichever
  // way it then moves. Judged by the move's own time, never by a frame's clock: on a page
  // drawing slow frames a quick tap's lift is handled after a frame that is already past this
  // time, and a rest decided there turned the tap into a press (and a double tap into nothing).
  static constexpr double kHoldTime = 0.35;
  // Two taps closer than this in time (seconds) and place (CSS pixels) are a double tap.
  static constexpr double kDoubleTapTime = 0.4, kDoubleTapDistance = 24;

 private:
  // A swipe's move to `p` at `t`: its trail for the speed at the lift.
  void follow(Point p, double t);
  // The first move past the slop of a touch that scrolls: the region under it, else the page.
  void begin_swipe(Point p, double t, TouchTarget& target);
  // A touch on a control becomes the control's drag: pressed where it touched down.
  void grab(TouchTarget& target);
  // The content's speed when the finger lifts: the finger's over its trail, against it.
  Point lift_speed() const;

  // `held`: on a control that drags, until the finger's first move tells a drag of the control
  // (sideways, or after a rest) from a swipe of the page.
  enum class Mode { none, pending, held, drag, swipe, page, pinch, done };
  float scale_;
  Mode mode_ = Mode::none;
  std::map<int, Point> fingers_;
  Point start_, last_;
  double start_t_ = 0, last_t_ = 0;
  // A swipe's recent positions (those of the last kSpeedWindow, at least two), oldest first.
  std::deque<std::pair<double, Point>> trail_;
  Point velocity_;  // the glide's, device pixels a second (of the content: against the finger)
  // Momentum after a swipe: where it scrolls (or the page, `page_glide_`), how fast, since when
  // (the first frame after the lift: a page busy when the finger lifted must not make the
  // content leap by the time the lift waited to be handled).
  bool gliding_ = false, page_glide_ = false;
  Point glide_at_;
  double glide_t_ = 0;
  // The pinch's finger spread and midpoint at the last event.
  float spread_ = 0;
  Point mid_;
  // The last tap, for double taps.
  double tap_t_ = -1;
  Point tap_p_;
};

}  // namespace ui::input
