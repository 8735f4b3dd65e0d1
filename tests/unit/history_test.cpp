// Undo and redo (src/model/history.h): which changes are edits, one entry per gesture, the
// redo branch dropped on a new edit, and the bounds on entries and memory.
#include <gtest/gtest.h>

#include "history.h"

namespace {

lab::State with_seed(std::uint32_t seed) {
  lab::State s;
  s.seed = seed;
  return s;
}

TEST(History, UndoAndRedoRestoreTheStatesAroundAnEdit) {
  lab::History h;
  const lab::State a = with_seed(1), b = with_seed(2), c = with_seed(3);
  EXPECT_FALSE(h.can_undo());
  h.record(a, b, false);
  h.record(b, c, false);
  EXPECT_EQ(*h.undo(c), b);
  EXPECT_EQ(*h.undo(b), a);
  EXPECT_FALSE(h.undo(a).has_value());
  EXPECT_EQ(*h.redo(a), b);
  EXPECT_EQ(*h.redo(b), c);
  EXPECT_FALSE(h.can_redo());
}

TEST(History, ANewEditDropsWhatWasUndone) {
  lab::History h;
  const lab::State a = with_seed(1), b = with_seed(2), d = with_seed(4);
  h.record(a, b, false);
  EXPECT_EQ(*h.undo(b), a);
  h.record(a, d, false);
  EXPECT_FALSE(h.can_redo());
  EXPECT_EQ(*h.undo(d), a);
}

TEST(History, MovingAroundIsNotAnEdit) {
  lab::State a;
  lab::State b = a;
  b.step = lab::Step::softmax, b.query = 2, b.view = lab::View::compare, b.theme = lab::Theme::dark, b.mode = lab::Mode::practice;
  EXPECT_FALSE(lab::is_edit(a, b));
  lab::History h;
  h.record(a, b, false);
  EXPECT_FALSE(h.can_undo());
  for (auto edit : {+[](lab::State& s) { s.nq = 5; }, +[](lab::State& s) { s.q = {1, 2}; },
                    +[](lab::State& s) { s.blocked = {{0, 1}}; }, +[](lab::State& s) { s.preset = "random"; },
                    +[](lab::State& s) { s.scale = attn::ScaleMode::none; }}) {
    lab::State c = a;
    edit(c);
    EXPECT_TRUE(lab::is_edit(a, c));
  }
}

TEST(History, UndoGoesBackToWhereTheEditWasMadeButKeepsTheTheme) {
  lab::History h;
  lab::State a;
  a.step = lab::Step::softmax;
  lab::State b = a;
  b.nq = 5;
  h.record(a, b, false);
  lab::State now = b;
  now.step = lab::Step::output, now.theme = lab::Theme::dark;
  const lab::State undone = *h.undo(now);
  EXPECT_EQ(undone.nq, 3);
  EXPECT_EQ(undone.step, lab::Step::softmax);
  EXPECT_EQ(undone.theme, lab::Theme::dark);
}

TEST(History, AfterARestartUndoStopsAtTheStateThenShown) {
  // Loaded data is the ground (page_api.cpp's lab_load): the edits before it cannot be undone
  // or redone, those after it can, down to the data and no further.
  lab::History h;
  const lab::State before = with_seed(1), undone = with_seed(2), loaded = with_seed(3), edited = with_seed(4);
  h.record(before, undone, false);
  ASSERT_TRUE(h.undo(undone).has_value());
  h.restart();
  EXPECT_FALSE(h.can_undo());
  EXPECT_FALSE(h.can_redo());
  h.record(loaded, edited, false);
  EXPECT_EQ(*h.undo(edited), loaded);
  EXPECT_FALSE(h.undo(loaded).has_value());
  EXPECT_EQ(*h.redo(loaded), edited);
}

TEST(History, TheLanguageIsAPreferenceNotAnEdit) {
  lab::History h;
  lab::State english;
  english.lang = lab::Language::en;
  lab::State spanish = english;
  spanish.lang = lab::Language::es;
  EXPECT_FALSE(lab::is_edit(english, spanish));
  h.record(english, spanish, false);
  EXPECT_FALSE(h.can_undo());  // choosing Español is nothing to undo
  // An edit made in English, undone after switching to Spanish: the edit goes, Spanish stays.
  lab::State edited = english;
  edited.nq = 5;
  h.record(english, edited, false);
  lab::State now = edited;
  now.lang = lab::Language::es;
  const lab::State undone = *h.undo(now);
  EXPECT_EQ(undone.nq, english.nq);
  EXPECT_EQ(undone.lang, lab::Language::es);
  EXPECT_EQ(h.redo(undone)->lang, lab::Language::es);
}

TEST(History, AGestureIsOneEntry) {
  lab::History h;
  lab::State s = with_seed(1);
  const lab::State start = s;
  for (int i = 0; i < 20; ++i) {  // a drag: a change every frame while the mouse is held
    lab::State next = s;
    next.custom_scale += 0.1f;
    h.record(s, next, true);
    s = next;
  }
  h.settle(false);  // released
  lab::State after = s;
  after.seed = 9;
  h.record(s, after, false);
  EXPECT_EQ(*h.undo(after), s);
  EXPECT_EQ(*h.undo(s), start);
  EXPECT_FALSE(h.can_undo());
}

TEST(History, KeepsAtMostItsEntries) {
  lab::History h;
  for (std::uint32_t i = 0; i < 250; ++i) h.record(with_seed(i), with_seed(i + 1), false);
  lab::State s = with_seed(250);
  int undone = 0;
  while (std::optional<lab::State> u = h.undo(s)) s = *u, ++undone;
  EXPECT_EQ(undone, int(lab::History::kMaxEntries));
  EXPECT_EQ(s.seed, 250u - lab::History::kMaxEntries);  // the newest were kept
}

TEST(History, KeepsAtMostItsBytes) {
  // States of 1 MB of typed values each, under a 10 MB bound: about ten are kept.
  lab::History h(100, std::size_t(10) << 20);
  auto big = [](std::uint32_t seed) {
    lab::State s = with_seed(seed);
    s.kind = lab::Attention::cross, s.nq = 1024, s.dk = 256;
    s.q.assign(std::size_t(1024) * 256, float(seed % 7));
    return s;
  };
  for (std::uint32_t i = 0; i < 40; ++i) h.record(big(i), big(i + 1), false);
  lab::State s = big(40);
  int undone = 0;
  while (std::optional<lab::State> u = h.undo(s)) s = *u, ++undone;
  EXPECT_GE(undone, 8);
  EXPECT_LE(undone, 10);
}

}  // namespace
