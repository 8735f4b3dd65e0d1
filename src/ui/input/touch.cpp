#include "touch.h"

#include <cmath>

namespace ui::input {
namespace {

float distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }
Point midpoint(Point a, Point b) { return {(a.x + b.x) / 2, (a.y + b.y) / 2}; }

}  // namespace

void Touch::start(int id, Point p, double t, TouchTarget& target) {
  gliding_ = false;  // a new touch stops the content
  if (fingers_.empty()) {
    fingers_[id] = p;
    start_ = last_ = p;
    start_t_ = last_t_ = t;
    trail_ = {{t, p}};
    switch (target.grabs(p)) {
      case TouchTarget::Grab::at_once:
        grab(target);
        return;
      case TouchTarget::Grab::sideways:
        mode_ = Mode::held;  // not pressed yet: a swipe up the page that starts on a slider must not move it
        return;
      case TouchTarget::Grab::none:
        break;
    }
    mode_ = Mode::pending;  // a tap or a swipe: the next moves tell
    target.pointer(p, false);
    return;
  }
  if (fingers_.size() >= 2) return;
  fingers_[id] = p;
  if (mode_ == Mode::drag) target.pointer(last_, false);
  const Point a = fingers_.begin()->second, b = fingers_.rbegin()->second;
  mode_ = Mode::pinch;
  spread_ = distance(a, b);
  mid_ = midpoint(a, b);
}

void Touch::move(int id, Point p, double t, TouchTarget& target) {
  auto finger = fingers_.find(id);
  if (finger == fingers_.end()) return;
  finger->second = p;
  switch (mode_) {
    case Mode::pending:
      if (distance(p, start_) > kSlop * scale_) begin_swipe(p, t, target);
      return;
    case Mode::held: {
      const bool rested = t - start_t_ >= kHoldTime;
      if (!rested && distance(p, start_) <= kSlop * scale_) return;
      // Sideways (a slider's way), or after a rest: the control's. Upright: the page's.
      if (rested || std::fabs(p.x - start_.x) > std::fabs(p.y - start_.y)) {
        grab(target);
        last_ = p;
        target.pointer(p, true);
      } else {
        begin_swipe(p, t, target);
      }
      return;
    }
    case Mode::swipe:
    case Mode::page: {
      const Point delta{last_.x - p.x, last_.y - p.y};
      if (mode_ == Mode::swipe) target.scroll(start_, delta);
      else target.overscroll(delta);
      follow(p, t);
      return;
    }
    case Mode::drag:
      last_ = p;
      target.pointer(p, true);
      return;
    case Mode::pinch: {
      if (fingers_.size() < 2) return;
      const Point a = fingers_.begin()->second, b = fingers_.rbegin()->second;
      const float spread = distance(a, b);
      const Point mid = midpoint(a, b);
      if (spread > 0 && spread_ > 0) target.zoom(mid, spread_ / spread, {mid.x - mid_.x, mid.y - mid_.y});
      spread_ = spread;
      mid_ = mid;
      return;
    }
    case Mode::none:
    case Mode::done: return;
  }
}

void Touch::end(int id, Point p, double t, TouchTarget& target) {
  if (!fingers_.erase(id)) return;
  switch (mode_) {
    case Mode::pending:
    case Mode::held: {
      const bool twice = tap_t_ >= 0 && t - tap_t_ < kDoubleTapTime && distance(p, tap_p_) < kDoubleTapDistance * scale_;
      target.tap(p, twice);
      tap_t_ = twice ? -1 : t;  // a third tap starts a new pair
      tap_p_ = p;
      break;
    }
    case Mode::drag: target.pointer(p, false); break;
    case Mode::swipe:
    case Mode::page:
      // Lifted while moving: the content (or the page) glides on. A finger that stopped first
      // does not. Decided by the events' own times, not by when they are handled.
      velocity_ = lift_speed();
      if (t - last_t_ <= kStillTime && std::hypot(velocity_.x, velocity_.y) > kGlideStop * scale_) {
        gliding_ = true;
        page_glide_ = mode_ == Mode::page;
        glide_at_ = start_;
        glide_t_ = -1;  // from the next frame: a lift handled late must not leap
      }
      break;
    case Mode::pinch:
    case Mode::none:
    case Mode::done: break;
  }
  // After a pinch, the finger left behind does nothing until it lifts too.
  mode_ = fingers_.empty() ? Mode::none : Mode::done;
  if (fingers_.empty()) target.lift();
}

void Touch::begin_swipe(Point p, double t, TouchTarget& target) {
  // The content follows the finger from where it touched down; where nothing here moves
  // that way, the page around the lab does.
  const Point delta{start_.x - p.x, start_.y - p.y};
  const Point moved = target.scroll(start_, delta);
  mode_ = moved.x == 0 && moved.y == 0 ? Mode::page : Mode::swipe;
  if (mode_ == Mode::page) target.overscroll(delta);
  follow(p, t);
}

void Touch::grab(TouchTarget& target) {
  mode_ = Mode::drag;
  target.pointer(start_, true);
}

void Touch::follow(Point p, double t) {
  last_ = p;
  last_t_ = t;
  trail_.push_back({t, p});
  while (trail_.size() > 2 && trail_.front().first < t - kSpeedWindow) trail_.pop_front();
}

Point Touch::lift_speed() const {
  if (trail_.size() < 2) return {};
  const auto& [t0, p0] = trail_.front();
  const auto& [t1, p1] = trail_.back();
  if (t1 <= t0) return {};
  return {float((p0.x - p1.x) / (t1 - t0)), float((p0.y - p1.y) / (t1 - t0))};
}

void Touch::cancel(TouchTarget& target) {
  if (mode_ == Mode::drag) target.pointer(last_, false);
  fingers_.clear();
  mode_ = Mode::none;
  gliding_ = false;
  target.lift();
}

bool Touch::advance(double t, TouchTarget& target) {
  if (!gliding_) return false;
  if (glide_t_ < 0) glide_t_ = t;
  const double dt = t - glide_t_;
  if (dt <= 0) return true;
  glide_t_ = t;
  const Point step{float(velocity_.x * dt), float(velocity_.y * dt)};
  Point moved = step;
  if (page_glide_) target.overscroll(step);
  else moved = target.scroll(glide_at_, step);
  const double decay = std::exp(-dt / kGlideTau);
  velocity_ = {float(velocity_.x * decay), float(velocity_.y * decay)};
  if ((moved.x == 0 && moved.y == 0) || std::hypot(velocity_.x, velocity_.y) < kGlideStop * scale_) gliding_ = false;
  return gliding_;
}

}  // namespace ui::input
