#include "web_input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui_internal.h>

#include <cfloat>
#include <deque>
#include <string>
#include <utility>

#include "app.h"
#include "input/item_layout.h"
#include "input/scroll.h"
#include "input/touch.h"
#include "input/wheel.h"

namespace web_input {
namespace {

using ui::input::Point;

float dpr() { return float(emscripten_get_device_pixel_ratio()); }
// The recognizer follows fingers on the screen, not on the canvas: when a swipe scrolls the
// lesson around an embedded lab, the canvas moves under a finger that stays put, and canvas
// coordinates would count that as the finger moving (and the lesson would shake). Where a
// point of the screen is on the canvas: minus `g_screen_to_canvas`, as of the latest event.
Point g_screen_to_canvas;
ImVec2 on_canvas(Point screen) { return ImVec2(screen.x - g_screen_to_canvas.x, screen.y - g_screen_to_canvas.y); }
// ImGui's "no mouse": a swipe hovers nothing (no tooltip follows the content under the finger).
constexpr Point kNowhere{-FLT_MAX, -FLT_MAX};
ImVec2 to_imgui(Point p) { return ImVec2(p.x, p.y); }

// The left button as ImGui sees it, one state a frame, from a finger or the mouse: a press
// and its release between two frames would otherwise reach ImGui as one state or none.
struct MouseState {
  Point p;
  bool down = false;
  // Of a press: how many clicks in a row it makes (2: a double-click), as the browser or the
  // touch recognizer counted them from the events' own times; 0: ImGui counts. ImGui 1.86
  // counts by its frames' clock, so on a busy page it misses double-clicks.
  int clicks = 0;
  bool touch = false;  // a finger's (its place leads the mouse until the real mouse moves)
  bool lift = false;   // the mouse leaving as the last finger lifts (Target::lift)
};

// A keyboard's input in the order it came: text, or one GLFW key event.
struct Typed {
  std::string text;
  int key = -1, scancode = 0, action = 0, mods = 0;
};

struct State {
  GLFWwindow* window = nullptr;
  std::deque<MouseState> queue;
  MouseState shown;            // the last state applied, held until the real mouse moves
  bool touch_leads = false;    // the last pointer input was a touch
  bool mouse_inside = true;    // the real mouse is over the canvas (GLFW's cursor enter and leave)
  bool reading = false;        // the last tap was on a matrix or a plot: the mouse stays to show its value
  int clicks = 0;              // the count of this frame's press (MouseState::clicks)
  bool keyboard_open = false;  // the hidden text field has focus
  bool field_seen = false;     // ImGui's text field became active since it opened
  // Typed before that field was active (ImGui activates it a few frames after the tap, and on
  // a slow page a person, or a test, types sooner), and the on-screen keyboard's keys: given
  // to ImGui in order, a step a frame (replay_typed).
  std::deque<Typed> typed;
  int frames_without_field = 0;
  ui::input::Touch touch;
} g;

// [SECTION] what a touch does to the interface
class Target final : public ui::input::TouchTarget {
 public:
  Grab grabs(Point p) override {
    const ImVec2 at = on_canvas(p);
    const ui::input::Item* item = ui::input::item_at(at);
    if (!item) return Grab::none;
    if (item->spot_at(at)) return Grab::at_once;
    return item->grabs ? Grab::sideways : Grab::none;
  }
  Point scroll(Point at, Point delta) override {
    if (g.touch_leads) press(kNowhere, false);
    const ImVec2 moved = ui::input::scroll_at(on_canvas(at), ImVec2(delta.x, delta.y));
    if (moved.x != 0 || moved.y != 0) wake();
    return {moved.x, moved.y};
  }
  bool zoom(Point at, float factor, Point pan) override {
    const bool zoomed = ui::input::zoom_at(on_canvas(at), factor, ImVec2(pan.x, pan.y));
    if (zoomed) wake();
    return zoomed;
  }
  void pointer(Point p, bool down) override { press(to_point(on_canvas(p)), down); }
  void tap(Point p, bool twice) override;
  // A state of its own after the release (not merged into it: the release must happen where
  // the finger was, for ImGui to click what it pressed).
  // After a tap on a matrix or a plot the mouse stays where the finger was, so the tapped
  // cell's value (its tooltip) shows until the next touch: a tap reads a cell.
  void lift() override {
    if (std::exchange(g.reading, false)) return;
    g.queue.push_back({kNowhere, false, 0, true, true});
    wake();
  }

 private:
  static Point to_point(ImVec2 v) { return {v.x, v.y}; }
  // A finger down again before the mouse left for the last lift: it does not leave. ImGui counts
  // a double-click on a control that grabs (a matrix cell) by its frames' clock, and a frame
  // away between the two taps would make a busy page miss it.
  static void next_touch() {
    if (!g.queue.empty() && g.queue.back().lift) g.queue.pop_back();
  }
  // The mouse ImGui sees, at `p` on the canvas. Moves while the button stays as it was replace
  // the last queued move: a drag is drawn at the frame rate, not once per touch event. A queued
  // press or release keeps its place: a drag whose moves all arrive before the next frame
  // must still press where the finger went down (on a narrow slider, where it ends is past
  // the track, and a press there takes nothing).
  void press(Point p, bool down) {
    next_touch();
    const bool before = g.queue.size() >= 2 ? g.queue[g.queue.size() - 2].down : g.shown.down;
    const bool last_is_move = !g.queue.empty() && g.queue.back().touch && g.queue.back().down == before;
    if (last_is_move && g.queue.back().down == down && g.queue.back().clicks == 0) g.queue.back().p = p;
    else g.queue.push_back({p, down, 0, true});
    wake();
  }
  void overscroll(Point delta) override {
    // To the page that embeds the lab (web/embed.js scrolls it), in CSS pixels.
    const float scale = dpr();
    EM_ASM({ if (Module.labOverscroll) Module.labOverscroll($0, $1); }, delta.x / scale, delta.y / scale);
  }
};
Target g_target;

// [SECTION] the on-screen keyboard: a hidden <input> that takes focus while an ImGui text
// field is active, so a phone opens its keyboard; what it types reaches ImGui through
// page_api.cpp's lab_typed and lab_key. A physical key already reached ImGui through GLFW's
// listeners, so the field drops what such a key would type into it.
EM_JS(void, open_keyboard, (int numeric), {
  var field = Module.labTextField;
  if (!field) {
    field = Module.labTextField = document.createElement('input');
    field.setAttribute('aria-hidden', 'true');
    field.setAttribute('autocomplete', 'off');
    field.setAttribute('autocapitalize', 'off');
    field.setAttribute('spellcheck', 'false');
    field.tabIndex = -1;
    // In view (a keyboard opens only for a field on screen) but invisible and under the lab.
    field.style.cssText = 'position:fixed;left:0;bottom:0;width:1px;height:1px;opacity:0;border:0;padding:0;' +
                          'font-size:16px;pointer-events:none;';
    document.body.appendChild(field);
    var physical = false;
    // A physical key's character (not a shortcut's, nor a composition's): GLFW typed it.
    field.addEventListener('keydown', function (e) {
      physical = e.key && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && !e.isComposing;
    });
    field.addEventListener('keyup', function () { physical = false; });
    field.addEventListener('beforeinput', function (e) {
      if (physical) { physical = false; e.preventDefault(); return; }
      if (e.inputType === 'deleteContentBackward') { e.preventDefault(); Module.ccall('lab_key', null, ['number'], [1]); }
      else if (e.inputType === 'insertLineBreak') { e.preventDefault(); Module.ccall('lab_key', null, ['number'], [2]); }
    });
    field.addEventListener('input', function () {
      if (field.value) Module.ccall('lab_typed', null, ['string'], [field.value]);
      field.value = "";
    });
  }
  field.inputMode = numeric ? 'decimal' : 'text';
  field.value = "";
  if (document.activeElement !== field) field.focus({preventScroll: true});
});
EM_JS(void, close_keyboard, (), {
  var field = Module.labTextField;
  if (field && document.activeElement === field) {
    field.blur();
    var canvas = document.getElementById('canvas');
    if (canvas) canvas.focus({preventScroll: true});
  }
});

bool numeric(const ui::input::Item* item) { return !item || item->kind != ui::input::ItemKind::text; }

// Input waits behind what is already waiting, so that it reaches ImGui in the order it came.
bool waits() { return holding_keys() || !g.typed.empty(); }

// A step of what waits, once no field is being opened: a run of text, or the key events up to
// one key's release. ImGui 1.86 reads a frame's characters before its keys, and a key pressed
// and released within a frame is held down for it by main.cpp's latch: a step a frame keeps
// the order (text, then the Enter that confirms it).
void replay_typed() {
  if (holding_keys() || g.typed.empty()) return;
  if (!g.typed.front().text.empty()) {
    for (; !g.typed.empty() && !g.typed.front().text.empty(); g.typed.pop_front())
      ImGui::GetIO().AddInputCharactersUTF8(g.typed.front().text.c_str());
  } else {
    while (!g.typed.empty() && g.typed.front().text.empty()) {
      const Typed e = g.typed.front();
      g.typed.pop_front();
      ImGui_ImplGlfw_KeyCallback(g.window, e.key, e.scancode, e.action, e.mods);
      if (e.action == GLFW_RELEASE) break;
    }
  }
  wake();
}

// What no field took is dropped, but for the releases: a key pressed before the tap and let go
// since must not stay down.
void drop_typed() {
  for (const Typed& e : g.typed)
    if (e.text.empty() && e.action == GLFW_RELEASE) ImGui_ImplGlfw_KeyCallback(g.window, e.key, e.scancode, e.action, e.mods);
  g.typed.clear();
}

void Target::tap(Point screen, bool twice) {
  next_touch();
  const Point p = to_point(on_canvas(screen));
  g.queue.push_back({p, false, 0, true});  // a frame of hover first: ImGui presses what it hovers
  g.queue.push_back({p, true, twice ? 2 : 1, true});
  g.queue.push_back({p, false, 0, true});
  // A field that a tap activates (a double tap, for a draggable value) opens the keyboard
  // now, inside the touch's own event: phones open it only for a person's gesture.
  const ui::input::Item* item = ui::input::item_at(to_imgui(p));
  using ui::input::ItemKind;
  g.reading = item && (item->kind == ItemKind::heatmap || item->kind == ItemKind::plot);
  if (item && (item->kind == ItemKind::input || item->kind == ItemKind::text || (twice && (item->kind == ItemKind::drag || item->kind == ItemKind::slider)))) {
    open_keyboard(numeric(item));
    g.keyboard_open = true;
    g.field_seen = false;
    g.frames_without_field = 0;
  }
  wake();
}

// [SECTION] the browser's events
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
  const float scale = dpr();
  const ImVec2 at(float(e->mouse.targetX) * scale, float(e->mouse.targetY) * scale);
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const ui::input::WheelScroll s = ui::input::wheel_scroll(
      {e->deltaX, e->deltaY, ui::input::WheelMode(e->deltaMode), e->mouse.shiftKey != 0, e->mouse.ctrlKey != 0},
      css_h * 0.875);
  g.touch_leads = false;
  bool taken = false;
  if (s.zoom != 1) {
    taken = ui::input::zoom_at(at, float(s.zoom));
  } else {
    // Not taken where nothing moves: an embedded lab at its end lets the page scroll on.
    const ImVec2 moved = ui::input::scroll_at(at, ImVec2(float(s.x) * scale, float(s.y) * scale));
    taken = moved.x != 0 || moved.y != 0;
  }
  if (taken) wake();
  return taken ? EM_TRUE : EM_FALSE;
}

// Every touch is the lab's (touch.h says why): attach() cancels each that can be cancelled.
template <void (ui::input::Touch::*handle)(int, Point, double, ui::input::TouchTarget&)>
EM_BOOL on_touch(int, const EmscriptenTouchEvent* e, void*) {
  const float scale = dpr();
  g.touch.set_scale(scale);
  g.touch_leads = true;
  // When the browser made the event, not when it is handled: two taps stay a double tap on a
  // page busy drawing between them.
  const double when = e->timestamp / 1000;
  for (int i = 0; i < e->numTouches; ++i) {
    const EmscriptenTouchPoint& t = e->touches[i];
    if (!t.isChanged) continue;
    g_screen_to_canvas = {float(t.screenX - t.targetX) * scale, float(t.screenY - t.targetY) * scale};
    (g.touch.*handle)(t.identifier, {float(t.screenX) * scale, float(t.screenY) * scale}, when, g_target);
  }
  // The recognizer decides in later frames (a tap waits to see if a second follows): the app's
  // loop runs while it does (animating()).
  wake();
  return EM_FALSE;
}

EM_BOOL on_touch_cancel(int, const EmscriptenTouchEvent*, void*) {
  g.touch.cancel(g_target);
  wake();
  return EM_FALSE;
}

}  // namespace

void attach(GLFWwindow* window) {
  g.window = window;
  // The real mouse takes the lead back from a finger.
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) {
    g.touch_leads = false;
    g.mouse_inside = true;
    wake();
  });
  // The mouse leaving the canvas (a figure's frame) leaves ImGui too: ImGui's backend keeps the
  // last position while the window has focus, and a tooltip would stay over the figure.
  glfwSetCursorEnterCallback(window, [](GLFWwindow*, int entered) {
    g.mouse_inside = entered != 0;
    wake();
  });
  // The left button joins the queue (ImGui's backend chains to this callback, but its own
  // state of the button is replaced in before_new_frame). The cursor is where this press or
  // release happened: GLFW set it from the same event.
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
    wake();
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    double x = 0, y = 0;
    glfwGetCursorPos(w, &x, &y);
    const bool down = action == GLFW_PRESS;
    g.queue.push_back({{float(x), float(y)}, down, down ? EM_ASM_INT({ return Module.labClickCount | 0; }) : 0, false});
  });
  // Emscripten's GLFW hands the DOM's wheel deltas on unchanged (pixels or lines, down
  // positive) and turns touches into a mouse; its listeners give way to these.
  EM_ASM({
    var canvas = Module['canvas'];
    for (var type of ['wheel', 'mousewheel']) canvas.removeEventListener(type, GLFW.onMouseWheel, true);
    canvas.removeEventListener('touchmove', GLFW.onMousemove, true);
    canvas.removeEventListener('touchstart', GLFW.onMouseButtonDown, true);
    canvas.removeEventListener('touchcancel', GLFW.onMouseButtonUp, true);
    canvas.removeEventListener('touchend', GLFW.onMouseButtonUp, true);
    // The browser neither scrolls nor zooms the page for a touch on the lab, nor makes mouse
    // events of it. Only where the event can be cancelled: one that cannot (the browser already
    // scrolling) says so in the console when cancelled.
    var cancel = function (e) { if (e.cancelable) e.preventDefault(); };
    for (var type of ['touchstart', 'touchmove', 'touchend']) canvas.addEventListener(type, cancel, {passive: false});
    // A press's count of clicks (the event's detail; 0 where a browser gives none: ImGui
    // counts), before GLFW's listener on the canvas reports the press: the window's capture
    // listeners come first.
    window.addEventListener('mousedown', function (e) { if (e.target === canvas) Module.labClickCount = e.detail; }, true);
  });
  emscripten_set_wheel_callback("#canvas", nullptr, EM_TRUE, on_wheel);
  emscripten_set_touchstart_callback("#canvas", nullptr, EM_TRUE, on_touch<&ui::input::Touch::start>);
  emscripten_set_touchmove_callback("#canvas", nullptr, EM_TRUE, on_touch<&ui::input::Touch::move>);
  emscripten_set_touchend_callback("#canvas", nullptr, EM_TRUE, on_touch<&ui::input::Touch::end>);
  emscripten_set_touchcancel_callback("#canvas", nullptr, EM_TRUE, on_touch_cancel);
}

void before_new_frame() {
  ImGuiIO& io = ImGui::GetIO();
  bool queued = false;
  if (!g.queue.empty()) {
    g.shown = g.queue.front();
    g.queue.pop_front();
    g.clicks = g.shown.down ? g.shown.clicks : 0;
    if (g.shown.touch) g.touch_leads = true;
    queued = true;
    wake();  // the rest of the queue, a frame each
  }
  if (g.touch_leads || queued) io.MousePos = to_imgui(g.shown.p);
  else if (!g.mouse_inside && !g.shown.down) io.MousePos = to_imgui(kNowhere);  // a drag goes on outside
  io.MouseDown[0] = g.shown.down;
  replay_typed();
}

// ImGui's widgets read a double-click from MouseClickedCount (a DragFloat's text field opens
// on a count of 2), which NewFrame has just computed by its own clock; MouseDoubleClicked is
// only derived from it, so setting that alone changes nothing.
void after_new_frame() {
  ImGuiIO& io = ImGui::GetIO();
  if (g.clicks > 0 && io.MouseClicked[0]) {
    io.MouseClickedCount[0] = io.MouseClickedLastCount[0] = ImU16(g.clicks);
    io.MouseDoubleClicked[0] = g.clicks == 2;
  }
  g.clicks = 0;
}

void after_frame() {
  const bool want = ImGui::GetIO().WantTextInput;
  if (want && !g.keyboard_open && g.touch_leads) {
    const ImGuiID active = ImGui::GetActiveID();
    const ui::input::Item* item = nullptr;
    for (const ui::input::Item& i : ui::input::last_frame_items())
      if (i.id == active) item = &i;
    open_keyboard(numeric(item));
    g.keyboard_open = true;
  }
  if (!g.keyboard_open) return;
  if (want) {
    if (!std::exchange(g.field_seen, true) && !g.typed.empty()) wake();
    return;
  }
  // The field is done (Enter, a tap elsewhere), or the tap that opened the keyboard activated
  // none: ImGui activates a field a frame or two after the tap, so that gets a few frames,
  // counted once the queued taps have all been applied (a double tap queues six frames).
  if (g.field_seen || (g.queue.empty() && ++g.frames_without_field > 4)) {
    close_keyboard();
    g.keyboard_open = false;
    drop_typed();  // no field took it
  } else {
    wake();
  }
}

// Events' timestamps and emscripten_get_now() are both performance.now().
bool animating() { return g.touch.advance(emscripten_get_now() / 1000, g_target) || !g.queue.empty() || !g.typed.empty(); }

bool holding_keys() { return g.keyboard_open && !g.field_seen; }

void typed(const char* utf8) {
  if (waits()) g.typed.push_back({utf8});
  else ImGui::GetIO().AddInputCharactersUTF8(utf8);
  wake();
}

void character(unsigned c) {
  char utf8[5];
  typed(ImTextCharToUtf8(utf8, c));
}

void key(int which) {
  const int k = which == 1 ? GLFW_KEY_BACKSPACE : GLFW_KEY_ENTER;
  g.typed.push_back({{}, k, 0, GLFW_PRESS, 0});
  g.typed.push_back({{}, k, 0, GLFW_RELEASE, 0});
  wake();
}

void key_event(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (waits()) g.typed.push_back({{}, key, scancode, action, mods});
  else ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  wake();
}

}  // namespace web_input

#else

namespace web_input {
void attach(GLFWwindow*) {}
void before_new_frame() {}
void after_new_frame() {}
void after_frame() {}
bool animating() { return false; }
bool holding_keys() { return false; }
void typed(const char*) {}
void key_event(GLFWwindow* window, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}
void character(unsigned c) { ImGui::GetIO().AddInputCharacter(c); }
void key(int) {}
}  // namespace web_input

#endif
