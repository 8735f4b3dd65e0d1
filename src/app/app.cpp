#include "app.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "page_bridge.h"
#include "state.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

App* g_app = nullptr;

// [SECTION] drawing on demand
namespace {
constexpr int kSettleFrames = 3;  // ImGui settles hover, release and popups a frame later
bool g_resting = false;           // the browser's loop is paused
}  // namespace

void wake() {
  g_app->pending = std::max(g_app->pending, kSettleFrames);
  g_app->woken = true;
#ifdef __EMSCRIPTEN__
  // Hidden, the app draws nothing, but a first frame that has not settled yet (view=model
  // waiting for its weights) is drawn regardless: the page hears its height and `ready`.
  if (g_resting && (g_app->visible || !g_app->told_ready)) {
    g_resting = false;
    emscripten_resume_main_loop();
  }
#endif
}

void rest() {
#ifdef __EMSCRIPTEN__
  if (g_resting) return;
  g_resting = true;
  emscripten_pause_main_loop();
#endif
}

void set_visible(App& app, bool visible) {
  app.visible = visible;
  if (visible) wake();  // draws what changed while hidden
}

// [SECTION] changes of state
bool change_state(App& app, lab::State next, bool ongoing, lab::Lab::Change change) {
  if (next == app.lab.state()) {
    app.ui.history.settle(ongoing);
    return false;
  }
  const lab::State before = app.lab.state();
  app.lab.set_state(std::move(next), change);
  app.ui.history.record(before, app.lab.state(), ongoing);
  return true;
}

const std::string& system_language() {
  static const std::string language = page::system_language();
  return language;
}

void show_link_notes(App& app) {
  LinkNotes& n = app.link_notes;
  if (n.lang != i18n::language()) {
    n.notes = lab::link_notes(lab::read_fragment(n.fragment, n.base), n.made);
    n.lang = i18n::language();
  }
  std::vector<std::string> all = n.earlier;
  all.insert(all.end(), n.notes.begin(), n.notes.end());
  app.ui.notes = all;
  page::notes(all);
}

void apply_fragment(App& app, const std::string& fragment, bool replace, std::vector<std::string> earlier) {
  // From scratch, an empty link opens the lesson's worked example, in the theme and language shown.
  lab::State base = replace ? lab::presets().front().state : app.lab.state();
  if (replace) {
    base.theme = app.lab.state().theme;
    base.lang = app.lab.state().lang;
  }
  // The reading's notes are in the language shown so far; show_link_notes() writes them again
  // in the language the link asks for (lang=es).
  const i18n::Lang read_in = i18n::language();
  lab::LinkReading reading = lab::read_fragment(fragment, base);
  i18n::set_language(i18n::resolve(lab::name_of(reading.state.lang), system_language()));
  // Lab::set_state normalises it: a live change against what is shown (the base), a link
  // opened from scratch as itself. The state the page opens with is where the history starts,
  // not an edit.
  const lab::Lab::Change change = replace ? lab::Lab::Change::replace : lab::Lab::Change::edit;
  if (app.frames == 0) app.lab.set_state(reading.state, change);
  else change_state(app, reading.state, false, change);
  std::vector<std::string> notes = lab::link_notes(reading, app.lab.state());
  app.link_notes = LinkNotes{fragment,           std::move(base), app.lab.state(), std::move(earlier),
                             std::move(notes), read_in};
  show_link_notes(app);
  publish_change(app);
  wake();  // the notes alone are something new to show
}

void publish_change(App& app) {
  if (!app.lab.take_changed()) return;
  page::state_changed(lab::to_fragment(app.lab.state()), state_object(app.lab.state()));
  wake();
}

std::string state_object(const lab::State& state) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (auto& [key, value] : lab::state_pairs(state, true)) object[key] = std::move(value);
  return object.dump();
}

// [SECTION] view=model's weights
void fetch_model_if_wanted(App& app) {
  bool asked = false;
  while (const std::optional<lab::WeightSource> w = app.lab.model().wanted(app.lab.state())) {
    app.lab.model_loading(w->weights);
    page::fetch_model(w->weights, w->report);
    asked = true;
  }
  if (asked) wake();  // "Loading…", or on the desktop the model, at once
}

void model_arrived(App& app, const std::string& name, const std::string& weights, const std::string& report,
                   const std::string& error) {
  app.lab.model_delivered(name, weights, report, error);
  wake();
}

// [SECTION] practice
practice::Verdict check_answer(App& app, const std::string& value) {
  const bool was_answered = app.lab.practice().answered();
  const practice::Verdict verdict = app.lab.practice_answer(value);
  app.ui.practice_error = verdict.error;
  if (!was_answered && app.lab.practice().answered()) page::answered(app.lab.practice().answered_json());
  wake();
  return verdict;
}
