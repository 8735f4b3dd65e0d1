#include "history.h"

#include <utility>

namespace lab {

namespace {

// The state without what moving around changes (history.h).
State without_navigation(State s) {
  s.step = Step::scores;
  s.query = s.batch = s.row = 0;
  const State plain;
  s.view = plain.view, s.mode = plain.mode, s.theme = plain.theme, s.density = plain.density, s.lang = plain.lang;
  s.play = s.run = false;
  return s;
}

}  // namespace

bool is_edit(const State& a, const State& b) {
  return a != b && without_navigation(a) != without_navigation(b);
}

std::size_t History::bytes(const State& s) {
  std::size_t floats = 0;
  for (const std::vector<float>* m : {&s.q, &s.k, &s.v, &s.x, &s.wq, &s.wk, &s.wv}) floats += m->size();
  return sizeof(State) + floats * sizeof(float) + s.pad.size() * sizeof(int) +
         s.blocked.size() * sizeof(std::pair<int, int>);
}

void History::record(const State& before, const State& after, bool ongoing) {
  if (!is_edit(before, after)) {
    settle(ongoing);
    return;
  }
  if (!open_) {
    undo_.push_back(before);
    bytes_ += bytes(before);
    for (const State& s : redo_) bytes_ -= bytes(s);
    redo_.clear();
    trim();
  }
  open_ = ongoing;
}

void History::restart() {
  undo_.clear();
  redo_.clear();
  bytes_ = 0;
  open_ = false;
}

std::optional<State> History::undo(const State& current) { return step(undo_, redo_, current); }
std::optional<State> History::redo(const State& current) { return step(redo_, undo_, current); }

std::optional<State> History::step(std::deque<State>& from, std::deque<State>& to, const State& current) {
  open_ = false;
  if (from.empty()) return std::nullopt;
  State out = std::move(from.back());
  from.pop_back();
  bytes_ -= bytes(out);
  to.push_back(current);
  bytes_ += bytes(current);
  out.theme = current.theme;
  out.density = current.density;
  out.lang = current.lang;
  trim();
  return out;
}

void History::trim() {
  // The oldest undo first, then the farthest redo; the state just moved to stays.
  while ((undo_.size() + redo_.size() > max_entries_ || bytes_ > max_bytes_) && undo_.size() + redo_.size() > 1) {
    std::deque<State>& list = undo_.size() > 1 || redo_.empty() ? undo_ : redo_;
    bytes_ -= bytes(list.front());
    list.pop_front();
  }
}

}  // namespace lab
