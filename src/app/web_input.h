// The browser's wheel, touch, mouse button and on-screen keyboard, for an interface that Dear
// ImGui 1.86 and Emscripten's GLFW know only as a mouse and a physical keyboard (issues 21 and
// 24). The rules live in src/ui/input/ (wheel.h, touch.h, scroll.h); this is their platform
// side. Natively every function here does nothing: GLFW's wheel and mouse reach ImGui as they
// always have.
#pragma once

struct GLFWwindow;

namespace web_input {

// Takes the canvas's wheel and touch events and its left mouse button from Emscripten's GLFW.
void attach(GLFWwindow* window);
// Between the backend's and ImGui's NewFrame: the mouse a touch moves and presses, and the
// mouse's left button (one state a frame, so a press and its release are two frames ImGui
// sees however slowly it draws), and what was typed meanwhile, in order.
void before_new_frame();
// After ImGui's NewFrame: a press counts the clicks the browser or the touch recognizer
// counted (a double-click, a double tap), whatever the frames' timing.
void after_new_frame();
// After the frame: opens the on-screen keyboard while an ImGui text field is active after a
// touch, and closes it when the field is done.
void after_frame();
// Whether a swipe's momentum or a queued tap still needs frames.
bool animating();
// Whether the on-screen keyboard is open for a field ImGui has not activated yet: what is
// typed meanwhile (text, Enter, Backspace, physical keys too) waits for that field.
bool holding_keys();

// From the hidden text field (page_api.cpp): text the on-screen keyboard typed, and its
// Backspace (1) or Enter (2) where it sends no key events of its own.
void typed(const char* utf8);
void key(int which);
// A character and a key event from GLFW (a physical key), for ImGui (in place of its backend's
// callbacks, which the key one still calls).
void character(unsigned c);
void key_event(GLFWwindow* window, int key, int scancode, int action, int mods);

}  // namespace web_input
