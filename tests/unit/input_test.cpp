// The wheel's arithmetic and the touch recognizer (src/ui/input/): what a notch, a trackpad, a
// swipe, a tap and a pinch become, against a recording target.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "input/touch.h"
#include "input/wheel.h"

namespace {

using namespace ui::input;

TEST(Wheel, NotchesOfChromiumAndFirefoxScrollAlike) {
  const WheelScroll chromium = wheel_scroll({0, 100, WheelMode::pixel}, 600);
  const WheelScroll firefox = wheel_scroll({0, 3, WheelMode::line}, 600);
  EXPECT_DOUBLE_EQ(chromium.y, 100);  // down: positive, as far as a page would scroll
  EXPECT_NEAR(firefox.y, chromium.y, 1e-9);
  EXPECT_DOUBLE_EQ(wheel_scroll({0, -100, WheelMode::pixel}, 600).y, -100);
  EXPECT_DOUBLE_EQ(wheel_scroll({0, 1, WheelMode::page}, 600).y, 600);
}

TEST(Wheel, TrackpadDeltasScrollInProportion) {
  double total = 0;
  for (int i = 0; i < 25; ++i) total += wheel_scroll({0, 4, WheelMode::pixel}, 600).y;
  EXPECT_DOUBLE_EQ(total, 100);
  EXPECT_DOUBLE_EQ(wheel_scroll({-7, 0, WheelMode::pixel}, 600).x, -7);
}

TEST(Wheel, ShiftScrollsSidewaysAndCtrlZooms) {
  const WheelScroll shifted = wheel_scroll({0, 100, WheelMode::pixel, true}, 600);
  EXPECT_DOUBLE_EQ(shifted.x, 100);
  EXPECT_DOUBLE_EQ(shifted.y, 0);
  const WheelScroll in = wheel_scroll({0, -100, WheelMode::pixel, false, true}, 600);
  EXPECT_NEAR(in.zoom, 0.85, 1e-12);  // a notch up: closer, as the desktop's Ctrl+wheel
  EXPECT_DOUBLE_EQ(in.y, 0);          // and no scrolling with it
  EXPECT_GT(wheel_scroll({0, 3, WheelMode::line, false, true}, 600).zoom, 1);
}

// Records what the recognizer does; regions scroll without limit unless `stuck`.
struct Recorder : TouchTarget {
  Grab grab = Grab::none;
  bool stuck = false;
  Point scrolled, pan, overscrolled;
  float zoom_factor = 1;
  std::vector<std::pair<Point, bool>> pointers;
  std::vector<bool> taps;  // each tap: whether a double
  int lifts = 0;
  Grab grabs(Point) override { return grab; }
  Point scroll(Point, Point d) override {
    if (stuck) return {};
    scrolled.x += d.x;
    scrolled.y += d.y;
    return d;
  }
  bool zoom(Point, float f, Point p) override {
    zoom_factor *= f;
    pan.x += p.x;
    pan.y += p.y;
    return true;
  }
  void pointer(Point p, bool down) override { pointers.push_back({p, down}); }
  void tap(Point, bool twice) override { taps.push_back(twice); }
  void overscroll(Point d) override {
    overscrolled.x += d.x;
    overscrolled.y += d.y;
  }
  void lift() override { ++lifts; }
};

// Finger 1 down at y = 400 at t = 0, then up to y = 200 in moves of `step` px 16 ms apart;
// returns the last move's time.
double swipe_up(Touch& touch, Recorder& r, float step) {
  touch.start(1, {100, 400}, 0, r);
  double t = 0;
  for (float y = 400 - step; y >= 200; y -= step) touch.move(1, {100, y}, t += 0.016, r);
  return t;
}

TEST(Touch, ASwipeUpScrollsDownByTheFingersTravelAndGlides) {
  Touch touch;
  Recorder r;
  const double t = swipe_up(touch, r, 10);
  EXPECT_FLOAT_EQ(r.scrolled.y, 200);  // the content followed the finger, from where it touched
  EXPECT_TRUE(r.taps.empty());
  touch.end(1, {100, 200}, t + 0.008, r);
  ASSERT_TRUE(touch.gliding());
  double end = t + 0.008;
  for (int i = 0; i < 600 && touch.advance(end += 0.016, r);) ++i;
  EXPECT_FALSE(touch.gliding());  // it stops by itself
  EXPECT_GT(r.scrolled.y, 300);   // 625 px/s when lifted: momentum adds about 625 × 0.325 px
  EXPECT_LT(r.scrolled.y, 450);
  EXPECT_FLOAT_EQ(r.overscrolled.y, 0);
}

// A swipe up of 200 px in steps of 20 px 16 ms apart from t = 0, lifted `hold` seconds after
// its last move; returns how far the content moved in all, glide included.
float swipe_held(double hold, Recorder& r) {
  Touch touch;
  const double t = swipe_up(touch, r, 20);
  touch.end(1, {100, 200}, t + hold, r);
  for (int i = 0; i < 600 && touch.advance(t + hold + 0.016 * (i + 1), r);) ++i;
  return r.scrolled.y;
}

TEST(Touch, AFingerStillBeforeTheLiftDoesNotGlide) {
  // Moving at 1,250 px/s, then held: by the events' times, 50 ms still is a stop (touch.h).
  Recorder moving, paused, held, stopped;
  EXPECT_GT(swipe_held(0.0, moving), 500);   // lifted while moving: about 1,250 × 0.325 px more
  EXPECT_GT(swipe_held(0.04, paused), 500);  // a frame or two late: still moving
  EXPECT_FLOAT_EQ(swipe_held(0.06, held), 200);  // held 60 ms: exactly the finger's travel
  EXPECT_FLOAT_EQ(swipe_held(0.1, stopped), 200);
}

TEST(Touch, TheGlideFollowsTheFingersLastSpeedNotItsAverage) {
  // Slow for a second (40 px), then a flick of 160 px in 48 ms: the glide is the flick's.
  Touch touch;
  Recorder r;
  touch.start(1, {100, 400}, 0, r);
  double t = 0;
  for (float y = 396; y >= 360; y -= 4) touch.move(1, {100, y}, t += 0.1, r);
  for (float y = 300; y >= 200; y -= 50) touch.move(1, {100, y}, t += 0.016, r);
  touch.end(1, {100, 200}, t, r);
  ASSERT_TRUE(touch.gliding());
  for (int i = 0; i < 600 && touch.advance(t += 0.016, r);) ++i;
  EXPECT_GT(r.scrolled.y, 200 + 0.8 * (160 / 0.048) * Touch::kGlideTau);  // the flick's 3,333 px/s × τ
}

TEST(Touch, TheMouseLeavesWhenTheLastFingerLifts) {
  Touch touch;
  Recorder r;
  touch.start(1, {50, 50}, 0, r);
  touch.end(1, {50, 50}, 0.05, r);  // a tap
  EXPECT_EQ(r.lifts, 1);
  touch.start(1, {100, 400}, 1, r);
  touch.start(2, {200, 400}, 1.01, r);
  touch.end(1, {100, 400}, 1.2, r);  // one of two fingers: the other still touches
  EXPECT_EQ(r.lifts, 1);
  touch.end(2, {200, 400}, 1.3, r);
  EXPECT_EQ(r.lifts, 2);
}

TEST(Touch, ANewTouchStopsTheGlide) {
  Touch touch;
  Recorder r;
  touch.start(1, {100, 400}, 0, r);
  double t = 0;
  for (float y = 380; y >= 100; y -= 20) touch.move(1, {100, y}, t += 0.016, r);
  touch.end(1, {100, 100}, t, r);
  ASSERT_TRUE(touch.gliding());
  touch.advance(t + 0.016, r);
  touch.start(2, {100, 300}, t + 0.03, r);
  EXPECT_FALSE(touch.gliding());
}

TEST(Touch, ATapClicksAndTwoTapsDoubleClick) {
  Touch touch;
  Recorder r;
  touch.start(1, {50, 50}, 0, r);
  touch.move(1, {52, 51}, 0.05, r);  // a finger wobbles: still a tap
  touch.end(1, {52, 51}, 0.1, r);
  touch.start(1, {53, 50}, 0.25, r);
  touch.end(1, {53, 50}, 0.3, r);
  touch.start(1, {53, 50}, 2.0, r);  // much later: a single tap again
  touch.end(1, {53, 50}, 2.05, r);
  EXPECT_EQ(r.taps, (std::vector<bool>{false, true, false}));
  EXPECT_FLOAT_EQ(r.scrolled.y, 0);
}

TEST(Touch, ADragOnAControlMovesTheControl) {
  Touch touch;
  Recorder r;
  r.grab = TouchTarget::Grab::sideways;
  touch.start(1, {10, 10}, 0, r);
  touch.move(1, {80, 12}, 0.1, r);
  touch.end(1, {80, 12}, 0.2, r);
  ASSERT_EQ(r.pointers.size(), 3u);
  EXPECT_TRUE(r.pointers[0].second);
  EXPECT_FLOAT_EQ(r.pointers[1].first.x, 80);
  EXPECT_FALSE(r.pointers[2].second);
  EXPECT_FLOAT_EQ(r.scrolled.x, 0);
  EXPECT_FALSE(touch.gliding());
}

TEST(Touch, AnUprightSwipeOnAControlScrollsAndNeverPressesIt) {
  Touch touch;
  Recorder r;
  r.grab = TouchTarget::Grab::sideways;
  swipe_up(touch, r, 20);  // 200 px up, a move every 16 ms: no rest
  EXPECT_TRUE(r.pointers.empty());
  EXPECT_FLOAT_EQ(r.scrolled.y, 200);
}

TEST(Touch, AFingerOnASpotDragsItAnyWayAtOnce) {
  Touch touch;
  Recorder r;
  r.grab = TouchTarget::Grab::at_once;  // the geometry plane's arrow tip
  touch.start(1, {10, 100}, 0, r);
  ASSERT_EQ(r.pointers.size(), 1u);
  EXPECT_TRUE(r.pointers[0].second);
  touch.move(1, {12, 40}, 0.05, r);  // upright, no rest
  EXPECT_FLOAT_EQ(r.pointers.back().first.y, 40);
  EXPECT_FLOAT_EQ(r.scrolled.y, 0);
}

TEST(Touch, AFingerRestingOnAControlTakesItWhicheverWayItMoves) {
  Touch touch;
  Recorder r;
  r.grab = TouchTarget::Grab::sideways;
  touch.start(1, {10, 100}, 0, r);
  EXPECT_FALSE(touch.advance(Touch::kHoldTime + 0.1, r));  // frames decide nothing: the finger's events do
  EXPECT_TRUE(r.pointers.empty());
  touch.move(1, {12, 40}, Touch::kHoldTime + 0.05, r);  // upright, after a rest: the control's
  ASSERT_EQ(r.pointers.size(), 2u);
  EXPECT_TRUE(r.pointers[0].second);
  EXPECT_FLOAT_EQ(r.pointers[0].first.y, 100);  // pressed where it touched down
  EXPECT_FLOAT_EQ(r.pointers.back().first.y, 40);
  EXPECT_FLOAT_EQ(r.scrolled.y, 0);
}

// A page drawing slow frames: frames come after a quick tap's touch, already past the rest's
// time, before its lift is handled; the lift, made at 50 ms, is a tap, and two are a double tap.
TEST(Touch, QuickTapsOnAControlHandledLateAreADoubleTap) {
  Touch touch;
  Recorder r;
  r.grab = TouchTarget::Grab::sideways;
  touch.start(1, {10, 100}, 0, r);
  touch.advance(0.44, r);  // a 440 ms frame
  touch.advance(0.88, r);  // and another
  touch.end(1, {10, 100}, 0.05, r);
  touch.start(1, {10, 100}, 0.15, r);
  touch.advance(1.32, r);
  touch.end(1, {10, 100}, 0.2, r);
  EXPECT_TRUE(r.pointers.empty());
  ASSERT_EQ(r.taps.size(), 2u);
  EXPECT_TRUE(r.taps[1]);
}

TEST(Touch, AtItsEndTheSwipeAndItsMomentumGoToThePage) {
  Touch touch;
  Recorder r;
  r.stuck = true;
  touch.start(1, {100, 100}, 0, r);
  touch.move(1, {100, 140}, 0.02, r);
  touch.move(1, {100, 240}, 0.04, r);
  EXPECT_FLOAT_EQ(r.overscrolled.y, -140);  // the finger's whole travel, reading back up
  touch.end(1, {100, 240}, 0.06, r);
  ASSERT_TRUE(touch.gliding());
  for (double t = 0.07; touch.advance(t, r); t += 0.016) {}
  EXPECT_LT(r.overscrolled.y, -140);
  EXPECT_TRUE(r.taps.empty());
  EXPECT_FLOAT_EQ(r.scrolled.y, 0);
}

TEST(Touch, TwoFingersPinchAndPan) {
  Touch touch;
  Recorder r;
  touch.start(1, {100, 100}, 0, r);
  touch.start(2, {200, 100}, 0.01, r);
  touch.move(1, {50, 100}, 0.03, r);   // spread 100 -> 150
  touch.move(2, {250, 100}, 0.05, r);  // spread 150 -> 200, midpoint back where it was
  EXPECT_NEAR(r.zoom_factor, 0.5, 1e-6);             // twice as close
  EXPECT_NEAR(r.pan.x, -25 + 25, 1e-6);
  touch.move(1, {80, 130}, 0.07, r);
  touch.move(2, {280, 130}, 0.09, r);  // both fingers 30 down and right by 30: a pan
  EXPECT_NEAR(r.pan.y, 30, 1e-4);
  touch.end(1, {80, 130}, 0.1, r);
  touch.move(2, {280, 300}, 0.12, r);  // the finger left behind does nothing
  touch.end(2, {280, 300}, 0.13, r);
  EXPECT_TRUE(r.taps.empty());
  EXPECT_FLOAT_EQ(r.scrolled.y, 0);
  EXPECT_FLOAT_EQ(r.overscrolled.y, 0);
}

}  // namespace
