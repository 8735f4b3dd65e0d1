// The page API's C side: every function of boundary.json's "calls", which web/page.js,
// page-tools.js and load.js call through ccall (window.attentionLab, docs/embed.md). Pointers
// returned are valid until the next call of the same function. The events the app sends the
// page are page_bridge.h's.
#include <emscripten.h>
#include <emscripten/html5.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "about.h"
#include "accessibility.h"
#include "app.h"
#include "export.h"
#include "i18n.h"
#include "load.h"
#include "message.h"
#include "page_tools.h"
#include "web_input.h"
#include "input/item_layout.h"

#define PAGE_API EMSCRIPTEN_KEEPALIVE

extern "C" {

// [SECTION] state and computation (page.js)
// The current state as a JSON object of every key and its value as a string (getState()),
// in the fragment's order.
PAGE_API const char* lab_get_state() {
  static std::string text;
  text = state_object(g_app->lab.state());
  return text.c_str();
}
// Applies a fragment: over the current state, or from scratch when `replace` is nonzero.
PAGE_API void lab_set_state(const char* fragment, int replace) { apply_fragment(*g_app, fragment, replace != 0); }
// Applies state given as JSON: the object of a page script's setState(), or, when `message`,
// a host page's postMessage. Both become a fragment for the one state parser.
PAGE_API void lab_set_state_json(const char* json, int message) {
  const lab::DecodedState d = message ? lab::decode_set_message(json) : lab::decode_state_object(json);
  apply_fragment(*g_app, d.fragment, false, d.notes);
}
// The interactive items of the last frame (layout()): [{label, kind, x, y, w, h}] in CSS pixels
// (a heatmap's with valuePx, rowLabels, colLabels and legend, a plot's with xTicks and yTicks:
// docs/embed.md)
// from the canvas's top left corner (the page adds the canvas's place).
PAGE_API const char* lab_layout() {
  static std::string text;
  const float dpr = float(emscripten_get_device_pixel_ratio());
  nlohmann::json items = nlohmann::json::array();
  for (const ui::input::Item& i : ui::input::last_frame_items()) {
    items.push_back({{"label", i.label}, {"kind", ui::input::item_kind_name(i.kind)}, {"x", i.min.x / dpr},
                     {"y", i.min.y / dpr}, {"w", (i.max.x - i.min.x) / dpr}, {"h", (i.max.y - i.min.y) / dpr}});
    if (i.kind == ui::input::ItemKind::heatmap) {
      items.back()["valuePx"] = i.value_em / dpr;
      items.back()["rowLabels"] = i.row_labels;
      items.back()["colLabels"] = i.col_labels;
      items.back()["legend"] = i.legend;
    } else if (i.kind == ui::input::ItemKind::plot) {
      items.back()["xTicks"] = i.col_labels;
      items.back()["yTicks"] = i.row_labels;
    }
  }
  text = items.dump();
  return text.c_str();
}
// The on-screen keyboard's text and keys (web_input.h).
PAGE_API void lab_typed(const char* utf8) { web_input::typed(utf8); }
PAGE_API void lab_key(int which) { web_input::key(which); }
// Bytes of the WebAssembly heap in use (malloc'ed), so tests can see that thousands of
// state changes leave it bounded.
PAGE_API unsigned long lab_memory_bytes() { return (unsigned long)mallinfo().uordblks; }
// The current computation in the contract's response format (docs/contract.md).
PAGE_API const char* lab_trace() {
  static std::string text;
  text = g_app->lab.trace_json();
  return text.c_str();
}
// The current experiment view's data (src/experiments/experiment_json.h, or view=train's
// runs: train_json.h), "null" elsewhere.
PAGE_API const char* lab_experiment() {
  static std::string text;
  text = g_app->lab.experiment_json();
  return text.c_str();
}
// Practice mode: the question on screen (practice.h's JSON), read without moving on (only the
// first call, before any question, asks one: the panel then shows it); and the verdict on an
// answer given as JSON text, which the panel shows (check_answer).
PAGE_API const char* lab_practice() {
  static std::string text;
  const bool first = g_app->lab.practice().asked() == 0;
  text = g_app->lab.practice_question_json();
  if (first) wake();
  return text.c_str();
}
PAGE_API const char* lab_answer(const char* value) {
  static std::string text;
  const practice::Verdict verdict = check_answer(*g_app, value);
  text = practice::Session::verdict_json(g_app->lab.practice().current(), verdict);
  return text.c_str();
}
// attentionLab.load (web/load.js): data in the contract's format, shown in the walkthrough
// (src/model/load.h) as the ground of the history: Undo takes back what is done to the data
// after, never the load (a notebook's tensors would otherwise be one Ctrl+Z away from the
// built-in example). Returns {"notes": [...]} or {"error": "..."};
// an error changes nothing.
PAGE_API const char* lab_load(const char* request, const char* options) {
  static std::string text;
  lab::Loaded loaded = lab::load_request(request, options, g_app->lab.state());
  text = loaded.error.empty() ? nlohmann::json{{"notes", loaded.notes}}.dump()
                              : nlohmann::json{{"error", loaded.error}}.dump();
  if (loaded.error.empty()) {
    g_app->lab.set_state(std::move(loaded.state), lab::Lab::Change::replace);
    g_app->ui.history.restart();
    publish_change(*g_app);
  }
  return text.c_str();
}

// view=model's weight file `name`, fetched by the page (Module.labFetchModel): `size` bytes of
// the file at `bytes` (malloc'ed by the page, freed here), the report's text, or why not
// (`error` non-empty, naming the file).
PAGE_API void lab_model(const char* name, unsigned char* bytes, int size, const char* report, const char* error) {
  const std::string weights(reinterpret_cast<const char*>(bytes), bytes ? std::size_t(size) : 0);
  std::free(bytes);
  model_arrived(*g_app, name, weights, report, error);
}

// attentionLab.loadModel (web/load.js): a model's files, each copied into the heap by the page
// and listed in `files` as [{name, ptr, size}] (freed here once read), opened and shown
// (Lab::open_model: view=model, the text kept), one step of the history. Returns {"model": {…}} (model_json) or
// {"error": "…"} naming the file and the problem; an error changes nothing.
PAGE_API const char* lab_open_model(const char* files) {
  static std::string text;
  std::vector<lm::ModelFile> read;
  std::vector<void*> buffers;
  for (const nlohmann::json& f : nlohmann::json::parse(files)) {
    char* bytes = reinterpret_cast<char*>(std::uintptr_t(f.at("ptr").get<double>()));
    buffers.push_back(bytes);
    read.push_back({f.at("name").get<std::string>(), std::string_view(bytes, f.at("size").get<std::size_t>())});
  }
  try {
    const lab::State before = g_app->lab.state();
    text = nlohmann::json{{"model", lab::model_json(g_app->lab.open_model(read))}}.dump();
    // Undo goes back to the model shown before; the opened one stays, for Redo or its button.
    g_app->ui.history.record(before, g_app->lab.state(), false);
    publish_change(*g_app);
  } catch (const std::exception& e) {
    text = nlohmann::json{{"error", e.what()}}.dump();
  }
  for (void* b : buffers) std::free(b);
  wake();
  return text.c_str();
}

// [SECTION] the page's words (page-tools.js, page.js, load.js)
// attentionLab.about(): the About box's text, in the language on screen.
PAGE_API const char* lab_about() {
  static std::string text;
  text = ui::about_text();
  return text.c_str();
}

// The page's own few words in the interface's language: one table of messages for the canvas
// and the page around it.
PAGE_API const char* lab_text(const char* english) { return tr(english); }

// [SECTION] drawing on demand (page-tools.js): what the app cannot see for itself
// The canvas's CSS size or the screen's pixel ratio changed (a ResizeObserver): the next frame
// fits the canvas to it.
// The page reads the canvas right after the frame this asks for (page.js's picture()): it is
// drawn even when it shows what the last one did.
PAGE_API void lab_wake() {
  g_app->shown.forget();
  wake();
}
// The page was hidden or shown, or the canvas scrolled out of or into view.
PAGE_API void lab_set_visible(int visible) { set_visible(*g_app, visible != 0); }
// The page's frame takes the height the lab's content needs (a notebook's output, boot.js): the
// lab keeps its one column at every width, which that height was measured for (side by side it
// would fill the same height with smaller cards).
PAGE_API void lab_fit_content(int fit) {
  g_app->ui.fit_content = fit != 0;
  wake();
}

// [SECTION] export and accessibility (page-tools.js)
// Tab or Shift+Tab on the canvas: 1 if focus moved inside it, 0 if it should leave it.
PAGE_API int lab_tab(int back) {
  wake();
  return ui::tab(g_app->ui, back != 0, false) ? 1 : 0;
}

// A key pressed in the lab (KeyboardEvent.key; `command`: Ctrl or Cmd held): 1 if the
// interface uses it, 0 if the page hands it to the page around the lab (page.js).
PAGE_API int lab_uses_key(const char* key, int command) {
  // A field that a tap is opening takes every key already: they wait for it (web_input.h).
  return web_input::holding_keys() || ui::uses_key(g_app->lab, g_app->ui, key, command != 0) ? 1 : 0;
}

// The system's colour scheme and motion preference changed.
PAGE_API void lab_set_preferences(int dark, int reduced_motion, int coarse_pointer) {
  g_app->ui.prefers_dark = dark != 0;
  g_app->ui.reduced_motion = reduced_motion != 0;
  g_app->ui.touch_screen = coarse_pointer != 0;
  wake();
}

// What an export would give, as text: `kind` is ui::ExportKind's (boundary.json's
// "exportKinds", in order): csv, json or embed code.
PAGE_API const char* lab_export_text(int kind) {
  static std::string text;
  const lab::Lab& lab = g_app->lab;
  switch (ui::ExportKind(kind)) {
    case ui::ExportKind::csv: text = ui::matrices_csv(lab); break;
    case ui::ExportKind::json: text = ui::state_json(lab); break;
    default: text = ui::embed_code(lab.state()); break;
  }
  return text.c_str();
}

// Runs an export as the Export menu does: PNG (after the next frame), CSV, JSON, or copy the
// embed code (ui::ExportKind's numbers).
PAGE_API void lab_export(int kind) {
  if (ui::ExportKind(kind) == ui::ExportKind::png) tools::request_png();
  else if (kind > 0 && kind <= int(ui::ExportKind::embed)) tools::deliver_export(ui::ExportKind(kind));
  wake();  // the Export menu's message
}

// The outcome of a copy or download, shown in the Export menu.
PAGE_API void lab_export_message(const char* text) {
  g_app->ui.export_message = text;
  wake();
}

}  // extern "C"
