// attention-lab: the GLFW main loop for the desktop (OpenGL 3.3) and the browser (WebGL2),
// one main for both. Natively:
//   attention-lab [--state "preset=causal-3x2&step=softmax"] [--size 1280x800] [--model PATH…]
//                 [--screenshot FILE [--frames N]] [--export png|csv|json [--frames N]]
// In the browser the state comes from the URL fragment and the page API (page_api.cpp). The
// app's state and its changes: app.h.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "accessibility.h"
#include "allocator.h"
#include "app.h"
#ifndef __EMSCRIPTEN__
#include "model_paths.h"
#endif
#include "gl.h"
#include "heatmap.h"
#include "i18n.h"
#include "key_latch.h"
#include "lab.h"
#include "page_bridge.h"
#include "page_tools.h"
#include "theme.h"
#include "ui.h"
#include "web_input.h"
#include "input/item_layout.h"
#include "input/scroll.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#else
#include "screenshot.h"
#endif

namespace {

// [SECTION] drawing on demand
bool animating(const App& app) {
  return app.ui.playing || app.lab.training_running() || app.lab.experiment().running() ||
         !app.options.screenshot.empty() || !app.options.export_kind.empty();
}

// Every GLFW input wakes the loop; installed before ImGui's callbacks, which chain to these.
void wake_on_input(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { wake(); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { wake(); });
  glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { wake(); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { wake(); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { wake(); });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow*, int, int) { wake(); });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) {  // the window's contents were lost
    g_app->shown.forget();
    wake();
  });
}

void usage() {
  std::fprintf(stderr,
               "usage: attention-lab [--state FRAGMENT] [--size WxH] [--model PATH...] [--screenshot FILE | --export KIND] [--frames N]\n"
               "  --state       a URL fragment, e.g. \"preset=causal-3x2&step=softmax&query=2\"\n"
               "  --model       a model's files or their folder (docs/your-model.md), shown in view=model\n"
               "  --screenshot  render N frames (default 3), write the window to FILE (PNG), exit\n"
               "  --export      render N frames, save the Export menu's png, csv or json file here, exit\n");
}

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--state" && has_value) o.state = argv[++i];
    else if (arg == "--screenshot" && has_value) o.screenshot = argv[++i];
    else if (arg == "--export" && has_value) {
      o.export_kind = argv[++i];
      if (o.export_kind != "png" && o.export_kind != "csv" && o.export_kind != "json") return false;
    }
    else if (arg == "--frames" && has_value) o.frames = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--model" && has_value) {
      while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) o.model.push_back(argv[++i]);
    }
    else if (arg == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &o.width, &o.height) != 2 || o.width < 200 || o.height < 200) return false;
    } else return false;
  }
  return true;
}

// [SECTION] changes of state and their history (history.h)
// An undo (negative) or redo step the buttons and keys asked for.
void step_history(App& app, int steps) {
  for (; steps < 0; ++steps)
    if (std::optional<lab::State> s = app.ui.history.undo(app.lab.state())) app.lab.set_state(std::move(*s));
  for (; steps > 0; --steps)
    if (std::optional<lab::State> s = app.ui.history.redo(app.lab.state())) app.lab.set_state(std::move(*s));
}

// The UI scale: the device pixel ratio in the browser (the canvas is drawn at device
// resolution), the monitor's content scale natively.
float current_scale(GLFWwindow* window) {
#ifdef __EMSCRIPTEN__
  (void)window;
  return float(emscripten_get_device_pixel_ratio());
#else
  float sx = 1, sy = 1;
  glfwGetWindowContentScale(window, &sx, &sy);
  return sx;
#endif
}

#ifdef __EMSCRIPTEN__
// Keeps the canvas's backing store at CSS size × devicePixelRatio, so text stays sharp and
// the canvas follows its container (the page sizes it with CSS). True if it was resized.
bool fit_canvas(GLFWwindow* window) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int w = std::max(1, int(css_w * dpr + 0.5)), h = std::max(1, int(css_h * dpr + 0.5));
  int cw = 0, ch = 0;
  glfwGetWindowSize(window, &cw, &ch);
  // Not glfwSetWindowSize: Emscripten's GLFW turns a size equal to the screen's into a
  // fullscreen (and pointer lock) request. Browser.setCanvasSize tells GLFW as a resize.
  if (cw == w && ch == h) return false;
  EM_ASM({ Browser.setCanvasSize($0, $1); }, w, h);
  return true;
}
#endif

// Figure mode: the page sizes its canvas to the figure (and the lesson its frame). Changes of a
// pixel or less are not told: a frame that rounds the other way must not resize the page.
// The whole lab's height in one column likewise, for a host that sizes its frame to it.
void report_height(float height, float ui_scale, double& told, void (*tell)(double)) {
  const double css = height > 0 ? std::ceil(height / ui_scale) : 0;
  if (std::fabs(css - told) <= 1 && (css > 0) == (told > 0)) return;
  told = css;
  tell(css);
}

// A new practice question, on screen and told to the page's host.
void next_question(App& app) {
  app.lab.practice_next();
  page::asked(app.lab.practice().question_json());
  wake();
}

// What the frame asked of the app and of the platform (ui/requests.h), in the order asked.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void carry_out(App& app, const ui::Request& request) {
  namespace r = ui::request;
  std::visit(Overloaded{
                 [](const r::Export& e) { tools::deliver_export(e.kind); },
                 [](const r::OpenLab& o) { page::open_lab(o.fragment); },
                 [](const r::OpenLesson& o) { page::open_lesson(o.lang.c_str()); },
                 [](const r::OpenData&) { page::open_data(); },
                 [](const r::OpenModel&) { page::open_model(); },
                 [&app](const r::History& h) { step_history(app, h.steps); },
                 [&app](const r::TrainStep&) { app.lab.train_step(); },
                 [&app](const r::TrainReset&) { app.lab.train_reset(); },
                 [&app](const r::MeasureAgain&) { app.lab.measure_again(); },
                 [&app](const r::PracticeNext&) { next_question(app); },
                 [&app](const r::PracticeAnswer& a) { check_answer(app, a.json); },
                 [](const r::DrawAgain&) {},  // the wake() below is all it asks
             },
             request);
  wake();  // what was asked shows in the next frames
}

// The frame's slices of training (while playing) and of view=cost's measurement. A slice stops
// after kSliceBudgetMs (a 60 Hz frame), so that with the drawing a frame that trains or
// measures stays well under 50 ms whatever steps per frame asks; a slice that moved draws again
// (a measurement still running draws its progress every kProgressSeconds: measuring_alone()).
constexpr double kSliceBudgetMs = 16;
void advance_runs(App& app) {
  const std::uint64_t trained = app.lab.training().version(), measured = app.lab.experiment().version();
  if (app.lab.training_running()) app.lab.train_advance(kSliceBudgetMs);
  app.lab.measure(kSliceBudgetMs);
  const bool measured_more = app.lab.experiment().version() != measured && !app.lab.experiment().running();
  if (app.lab.training().version() != trained || measured_more) wake();
}

// view=model's flipped passes (model_view.h), once a frame has drawn the change's maps: in the
// next callback rather than the one that drew them, which the browser presents only when it
// returns, and only when nothing woke the app since (`woken`): a key typed meanwhile is handled
// first, and its change drops the passes it makes stale instead of waiting for them.
void finish_model_passes(App& app, bool woken) {
  if (!app.lab.model().pending()) return;
  if (app.model_drawn == app.lab.model().version() && !woken) app.lab.model_finish();
  app.pending = std::max(app.pending, 1);  // the frame that shows them, or tries again
}

// While view=cost measures and nothing else asks for a frame (no input, no change, no training),
// a callback only measures, and the progress is drawn twice a second: drawing every
// callback gave the kernels 16 ms of each frame, and a frame of software rendering on a busy
// machine took 120–150 ms (the lesson's Measure took 45 s at 1280 × 800 and 58 s on a phone in
// headless Chromium at load 12; 16 s each since, at load 7–11).
constexpr double kProgressSeconds = 0.5;
bool measuring_alone(const App& app) {
  return app.told_ready && app.pending == 0 && app.lab.experiment().running() && !app.ui.playing &&
         !app.lab.training_running() && !web_input::animating() && glfwGetTime() - app.drawn_at < kProgressSeconds;
}

// ImGui's clock between a drawing and its second within one callback: it must move (ImGui asks
// for a positive step) and by next to nothing (no hover delay or double-click window passes).
constexpr float kAgainSeconds = 1e-4f;

// Whether the next frame has something to draw; when not, the browser's loop rests (app.h).
bool busy(const App& app) { return app.pending > 0 || animating(app) || web_input::animating(); }

// [SECTION] one frame, in named steps
// The screen's scale, the theme (theme=auto: the system's scheme) and the finger's pointer:
// fonts and style are rebuilt when one changes. The language: the page's words and the notes
// on screen follow it.
void follow_screen(App& app) {
  const float scale = current_scale(app.window);
  const lab::Theme theme = app.lab.state().theme;
  const int dark = theme == lab::Theme::dark || (theme == lab::Theme::system && app.ui.prefers_dark);
  if (scale != app.ui_scale || dark != app.dark || app.ui.touch_screen != app.touch_screen) {
    if (scale != app.ui_scale) {
      ui::load_fonts(scale);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
      app.shown.forget();  // the glyphs' texture is new, perhaps under the old one's name
    }
    ui::apply_theme(dark != 0, scale, app.ui.touch_screen);
    app.ui_scale = scale;
    app.dark = dark;
    app.touch_screen = app.ui.touch_screen;
    wake();
  }
  const i18n::Lang lang = i18n::resolve(lab::name_of(app.lab.state().lang), system_language());
  i18n::set_language(lang);
  if (lang != app.language_shown) {
    app.language_shown = lang;
    page::language_changed(i18n::code(lang));
    // The language button: the notes on screen follow.
    if (!app.ui.notes.empty() && app.link_notes.lang != lang) show_link_notes(app);
    wake();
  }
}

// The interface, drawn into ImGui's lists: returns the state and the requests it asks for.
// `again`: the same input drawn a second time within one callback, for the state the first
// drawing changed (frame()); the input was taken by the first, so none is read or released.
ui::Frame draw_interface(App& app, bool again) {
  ImGui_ImplOpenGL3_NewFrame();
  if (again) {
    ImGui::GetIO().DeltaTime = kAgainSeconds;
  } else {
    ImGui_ImplGlfw_NewFrame();
    web_input::before_new_frame();
    key_latch::latch();
    // Ctrl+wheel zooms the heatmap under the mouse (ImGui leaves it unscrolled); the browser's
    // wheel comes through web_input instead.
    if (const ImGuiIO& io = ImGui::GetIO(); io.KeyCtrl && io.MouseWheel != 0)
      ui::input::zoom_at(io.MousePos, std::pow(0.85f, io.MouseWheel));
  }
  ImGui::NewFrame();
  if (!again) web_input::after_new_frame();
  ui::input::begin_frame();
  ui::Frame drawn = ui::draw(app.lab, app.ui);
  ImGui::Render();
  ui::input::end_frame();
  return drawn;
}

// Whether a frame shows its layout as the next frame will: not when it measured a card anew
// (DrawAgain) or asked for a practice question (the card holds the new one only from the next
// frame, the first question included). The page hears heights and `ready` from
// settled frames only, so that a lesson's frame does not jump through the sizes of a layout
// still being measured (a practice figure on a phone went 460 → 909 → 580 → 708 px as it
// started, and a test read 909 as its height).
bool settled(const std::vector<ui::Request>& requests) {
  return std::none_of(requests.begin(), requests.end(), [](const ui::Request& r) {
    return std::holds_alternative<ui::request::DrawAgain>(r) || std::holds_alternative<ui::request::PracticeNext>(r);
  });
}
// A first layout that has not settled by this frame is not waited for any longer.
constexpr int kFramesToSettle = 4;

// ImGui's lists onto the screen, unless they show what is already there (shown_frame.h);
// the figure's and the column's heights to the page once the layout has settled. Returns
// whether it drew.
bool present(App& app, bool settled) {
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  if (!app.options.screenshot.empty()) app.shown.forget();  // read from the window's buffer
  const bool draws = app.shown.differs(*ImGui::GetDrawData(), fb_w, fb_h, bg, render::paints());
  if (draws) {
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  if (settled) {
    report_height(app.ui.figure_height, app.ui_scale, app.figure_height, page::figure_height);
    report_height(app.ui.content_height, app.ui_scale, app.content_height, page::content_height);
  }
  return draws;
}

// The person's change of state in a drawing (one recomputation at most): whether it changed.
// A gesture is a drag, or a button held down, on an item (one undo for the whole drag); a
// value typed into a field is an edit of its own.
bool take_change(App& app, lab::State next) {
  return change_state(app, std::move(next), ImGui::IsAnyItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left));
}

// What the frame asked for, after it was shown: its requests (undo and redo, training and
// measuring, practice, exports and links), the change told to the page once, and the page's
// table and exports.
void carry_out_requests(App& app, const std::vector<ui::Request>& requests) {
  for (const ui::Request& request : requests) carry_out(app, request);
  publish_change(app);
  // view=model: its weights fetched the first time the view is on screen.
  fetch_model_if_wanted(app);
  tools::after_frame();
}

#ifndef __EMSCRIPTEN__
// --screenshot and --export: done once the frames asked for are drawn, then the program ends.
void finish_command_line(App& app) {
  if (app.frames < app.options.frames) return;
  if (!app.options.screenshot.empty()) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
    app.failed = !write_screenshot(app.options.screenshot.c_str(), fb_w, fb_h);
    glfwSetWindowShouldClose(app.window, GLFW_TRUE);
  }
  if (const std::string& kind = app.options.export_kind; !kind.empty()) {
    const auto export_kind = kind == "png" ? ui::ExportKind::png : kind == "csv" ? ui::ExportKind::csv : ui::ExportKind::json;
    app.failed = !tools::deliver_export(export_kind);
    std::fprintf(stderr, "attention-lab: %s\n", app.ui.export_message.c_str());
    glfwSetWindowShouldClose(app.window, GLFW_TRUE);
  }
}
#endif

void frame() {
  App& app = *g_app;
#ifdef __EMSCRIPTEN__
  // The page wakes the app when the canvas's size or the pixel ratio changes (page-tools.js).
  if (fit_canvas(app.window)) wake();
  // Hidden (the page, or the canvas out of view: page-tools.js), the app rests until it is
  // visible again. The first frames are drawn regardless, until one has settled: it resolves
  // ready.
  if (!app.visible && app.told_ready) return rest();
#endif
  const bool woken = std::exchange(app.woken, false);
  if (web_input::animating()) wake();  // a swipe's momentum, a tap's frames
  follow_screen(app);
  finish_model_passes(app, woken);
  if (measuring_alone(app)) {
    app.lab.measure(kSliceBudgetMs);
    if (!app.lab.experiment().running()) wake();  // the result
    return;
  }
  if (!busy(app)) return rest();
  app.pending = std::max(0, app.pending - 1);
  app.drawn_at = glfwGetTime();

  // A drawing that changes the state shows the state before it (a key's text beside the maps
  // of the text before the key): the interface is drawn again at once for the new state, and
  // only that is shown, so that a change is on screen in the frame that takes it.
  ui::Frame drawn = draw_interface(app, false);
  std::vector<ui::Request> requests = std::move(drawn.requests);
  if (take_change(app, std::move(drawn.next))) {
    ui::Frame again = draw_interface(app, true);
    take_change(app, std::move(again.next));
    std::move(again.requests.begin(), again.requests.end(), std::back_inserter(requests));
  }
  web_input::after_frame();
  app.model_drawn = app.lab.model().version();
  // view=model's notice while its weights load is not the figure: its height would size a
  // lesson's frame to a line, and a frame off screen once ready rests until it is scrolled to,
  // so its box kept that height (the lesson shrank under its reader as the model chapter's
  // figures started).
  const bool settles = !app.lab.model().awaited(app.lab.state()) &&
                       (settled(requests) || (!app.told_ready && app.frames + 1 >= kFramesToSettle));
  const bool drew = present(app, settles);
  carry_out_requests(app, requests);
  advance_runs(app);
  ++app.frames;
  if (settles && !app.told_ready) {
    app.told_ready = true;
    page::first_frame(state_object(app.lab.state()));
  }
#ifndef __EMSCRIPTEN__
  finish_command_line(app);
#endif
  if (drew) glfwSwapBuffers(app.window);
  // Nothing more to draw: no callback until something wakes the app.
  if (!busy(app)) rest();
}

}  // namespace

int main(int argc, char** argv) {
  train::keep_freed_memory();  // view=train's steps reallocate their matrices
  static App app;
  g_app = &app;
  if (!parse_args(argc, argv, app.options)) {
    usage();
    return 2;
  }
  glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); });
  if (!glfwInit()) {
    std::fprintf(stderr, "attention-lab: no display (on a headless machine, run it under xvfb-run -a)\n");
    return 1;
  }
#ifndef __EMSCRIPTEN__
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  if (!app.options.screenshot.empty() || !app.options.export_kind.empty()) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
#endif
  app.window = glfwCreateWindow(app.options.width, app.options.height, "Attention Lab", nullptr, nullptr);
  if (!app.window) {
    std::fprintf(stderr, "attention-lab: could not create an OpenGL 3.3 window\n");
    return 1;
  }
  glfwMakeContextCurrent(app.window);
  glfwSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  // A steady caret: a blinking one would need frames while the page is otherwise idle.
  ImGui::GetIO().ConfigInputTextCursorBlink = false;
  // Installed before ImGui's callbacks, which chain to it.
  glfwSetKeyCallback(app.window, [](GLFWwindow*, int key, int, int action, int mods) {
    wake();
    key_latch::event(key, action);
    if (action == GLFW_RELEASE) return;
    using Key = ui::Memory::Key;
    std::vector<Key>& keys = g_app->ui.keys;
    if (key == GLFW_KEY_LEFT) keys.push_back(Key::left);
    if (key == GLFW_KEY_RIGHT) keys.push_back(Key::right);
    if (key == GLFW_KEY_UP) keys.push_back(Key::up);
    if (key == GLFW_KEY_DOWN) keys.push_back(Key::down);
    if (key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER) keys.push_back(Key::enter);
    if (key == GLFW_KEY_ESCAPE) keys.push_back(Key::escape);
    if (key == GLFW_KEY_SPACE) keys.push_back(Key::space);
    // Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y (Cmd on a Mac).
    const bool command = (mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) != 0;
    if (command && key == GLFW_KEY_Z) keys.push_back((mods & GLFW_MOD_SHIFT) ? Key::redo : Key::undo);
    if (command && key == GLFW_KEY_Y) keys.push_back(Key::redo);
    // The desktop window keeps Tab inside (the browser page lets it leave: page-tools.js).
    if (key == GLFW_KEY_TAB) ui::tab(g_app->ui, (mods & GLFW_MOD_SHIFT) != 0, true);
  });
  wake_on_input(app.window);
  web_input::attach(app.window);
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  // In place of ImGui's: a character or a key typed for a field that a tap is still opening
  // waits for it.
  glfwSetCharCallback(app.window, [](GLFWwindow*, unsigned c) {
    wake();
    web_input::character(c);
  });
  glfwSetKeyCallback(app.window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    wake();
    web_input::key_event(w, key, scancode, action, mods);
  });
  tools::attach(app.lab, app.ui);
#ifdef __EMSCRIPTEN__
  ImGui_ImplOpenGL3_Init("#version 300 es");
  app.visible = !page::hidden();
  apply_fragment(app, page::initial_fragment(), true);
  emscripten_set_main_loop(frame, 0, false);
#else
  ImGui_ImplOpenGL3_Init("#version 330");
  apply_fragment(app, app.options.state, true);
  if (!app.options.model.empty()) {
    try {
      app.lab.open_model(lm::read_paths(app.options.model).files());
      // --state's keys again over the model opened (its heads, its chosen token): the model stays
      // unless --state names another.
      if (!app.options.state.empty()) apply_fragment(app, app.options.state, false);
      app.ui.history.restart();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "attention-lab: --model: %s\n", e.what());
      return 2;
    }
  }
  // Idle, the loop sleeps until an event (or a second passes: the system's theme may change).
  while (!glfwWindowShouldClose(app.window)) {
    if (app.pending > 0 || animating(app)) glfwPollEvents();
    else glfwWaitEventsTimeout(1.0);
    frame();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(app.window);
  glfwTerminate();
  return app.failed ? 1 : 0;
#endif
}
