// The app's one instance and how its state changes: shared by the main loop (main.cpp) and
// the page's calls into it (page_api.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "i18n.h"
#include "lab.h"
#include "practice.h"
#include "shown_frame.h"
#include "ui.h"

struct GLFWwindow;

// The desktop program's command line (main.cpp's usage()).
struct Options {
  std::string state;
  std::string screenshot;
  std::string export_kind;  // png, csv or json: the Export menu's file, into the working directory
  std::vector<std::string> model;  // --model: a model's files and folders, opened at start (docs/your-model.md)
  int frames = 3;
  int width = 1280, height = 800;
};

// The link the notes on screen come from, to read them again when the language changes (they
// are sentences with the link's values in them, translated as they are written).
struct LinkNotes {
  std::string fragment;
  lab::State base;
  lab::State made;  // the normalised state the link made, whose values the notes name
  std::vector<std::string> earlier;  // from decoding a message: before the link's own
  std::vector<std::string> notes;    // the link's, in `lang`
  i18n::Lang lang = i18n::Lang::en;
};

struct App {
  GLFWwindow* window = nullptr;
  lab::Lab lab{lab::State{}};
  ui::Memory ui;
  Options options;
  float ui_scale = 0;  // the scale and theme the fonts and style were built for
  int dark = -1;
  bool touch_screen = false;
  std::optional<i18n::Lang> language_shown;  // the language the page was last told of
  LinkNotes link_notes;
  int frames = 0;
  bool told_ready = false;  // the page was told of the first settled frame (main.cpp's frame())
  int pending = 0;       // frames still to draw after the last change or input (drawing on demand)
  double drawn_at = 0;   // when the last frame was drawn, in glfwGetTime()'s seconds
  std::uint64_t model_drawn = 0;  // the version of view=model's result the last frame drew
  bool woken = false;  // wake() was called since the frame before this one began: input or a change waits
  bool visible = true;   // false while the page is hidden or the canvas is scrolled out of view
  double figure_height = 0;  // the figure's height in CSS pixels the page was last told (0: none)
  double content_height = 0;  // the one-column lab's, likewise
  ShownFrame shown;  // the frame on screen, not drawn again while the next is the same
  bool failed = false;
};

extern App* g_app;  // the one instance: the page calls in through plain C functions

// [SECTION] drawing on demand
// A frame is drawn after a change, an input, a resize, or while something moves (Play, a
// running training); otherwise the loop draws nothing, so an idle instance costs nothing. An
// input is followed by a few frames: ImGui settles hover, release and popups a frame later;
// those that would show what is already on screen are not drawn (shown_frame.h).
// In the browser the loop itself stops: once a frame finds nothing left to draw it rests
// (emscripten_pause_main_loop: no requestAnimationFrame callback at all), and wake() starts it
// again, unless the instance is hidden (then set_visible() does, when it shows again). So every
// source of change calls wake(): input, the page API, the canvas's size, the preferences.
// Natively the loop sleeps in glfwWaitEventsTimeout instead and rest() does nothing.
void wake();
void rest();
// The page hid the instance (the page hidden, the canvas scrolled out of view) or showed it.
void set_visible(App& app, bool visible);

// [SECTION] changes of state
// Applies a change and records it in the history (history.h); `ongoing`: part of a gesture
// still under way (a drag). Returns whether the state changed.
bool change_state(App& app, lab::State next, bool ongoing, lab::Lab::Change change = lab::Lab::Change::edit);
// Applies a fragment over the current state (or over the defaults when `replace`), shows
// its notes (after `earlier` ones, from decoding), and tells the page about the change.
void apply_fragment(App& app, const std::string& fragment, bool replace, std::vector<std::string> earlier = {});
// After a change of state, if there was one: tells the page (its URL fragment, listeners and
// host, in one crossing: page::state_changed) and draws again.
void publish_change(App& app);
// The state as the page's getState() gives it: a JSON object of every key and its value as a
// string, in the link's order.
std::string state_object(const lab::State& state);
// Shows the link's notes (after the earlier ones) in the language now shown, reading the link
// again if they were written in another.
void show_link_notes(App& app);
// The reader's system language, for lang=auto (read once).
const std::string& system_language();

// [SECTION] view=model's weights
// Asks the platform for each weight file the state wants and has not asked for (ModelFiles:
// the model's when view=model first opens, the twin's, the checkpoints'; page::fetch_model);
// each arrives through model_arrived(): its path, the weight file's bytes and the report's
// text, or the sentence saying why there are none.
void fetch_model_if_wanted(App& app);
void model_arrived(App& app, const std::string& name, const std::string& weights, const std::string& report,
                   const std::string& error);

// [SECTION] practice
// Checks an answer (JSON text) to the practice question, from the panel or attentionLab.answer():
// the panel shows the verdict, or why the answer could not be read. The first answer scored
// for a question is the page's `answer` event (page::answered).
practice::Verdict check_answer(App& app, const std::string& value);
