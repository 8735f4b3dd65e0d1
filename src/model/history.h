// Undo and redo of a person's edits (Ctrl+Z, Ctrl+Shift+Z and the header's buttons): the
// states before each edit, and the states undone since the last edit.
//
// An edit is a change to what is computed or shown as a result (shape, seed, typed values,
// scale, mask, an experiment's settings, the example chosen). Moving around is not: the step,
// the selected query and sequence, the view, the mode, the theme, the language and layout,
// playing and measuring. Undo goes back to the state before the last edit, where the person
// was when making it, keeping the current theme, language and layout (preferences, not
// edits: Undo after choosing Español does not bring English back).
//
// Loaded data (a notebook's, a file's, the page API's load()) is the ground the history starts
// from: Undo takes back the edits made on it, never the load itself (restart()).
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

#include "state.h"

namespace lab {

// True when `a` and `b` differ in more than moving around (above).
bool is_edit(const State& a, const State& b);

class History {
 public:
  // At most `max_entries` states are kept, holding at most `max_bytes` of matrices and masks
  // between them (a loaded n = 2048 input is megabytes): the oldest go first.
  static constexpr std::size_t kMaxEntries = 100;
  static constexpr std::size_t kMaxBytes = std::size_t(32) << 20;
  explicit History(std::size_t max_entries = kMaxEntries, std::size_t max_bytes = kMaxBytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // After every change of state. `ongoing`: the change is part of a gesture still under way
  // (a drag, a button held down), joined to the entry its first change made, so one drag is
  // one undo. A new edit forgets what was undone.
  void record(const State& before, const State& after, bool ongoing);
  // Frames without a change: a gesture that is no longer under way has ended.
  void settle(bool ongoing) { open_ = open_ && ongoing; }

  // Forgets every entry: the state shown now is where Undo stops.
  void restart();

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  // The state to apply instead of `current`, or nothing when there is none.
  std::optional<State> undo(const State& current);
  std::optional<State> redo(const State& current);

 private:
  static std::size_t bytes(const State& s);
  std::optional<State> step(std::deque<State>& from, std::deque<State>& to, const State& current);
  void trim();

  std::size_t max_entries_, max_bytes_;
  std::deque<State> undo_, redo_;  // oldest first; the back is the next to apply
  std::size_t bytes_ = 0;          // of both lists
  bool open_ = false;              // the back of undo_ began a gesture still under way
};

}  // namespace lab
