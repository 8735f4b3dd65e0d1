// A key pressed and released between two frames. Dear ImGui 1.86 reads a key as its state at
// NewFrame: a press and its release that both come before a frame (a quick tap while frames are
// slow, a test's key press, the desktop's event wait handing both at once) would never be seen,
// and Enter in a check's field would not submit the answer. Such a key is held down for one
// frame, then given its real state.
#pragma once

namespace key_latch {

// A GLFW key's event (GLFW_PRESS, GLFW_REPEAT or GLFW_RELEASE), from the key callback.
void event(int key, int action);
// Before ImGui's NewFrame: the keys held for the last frame get their real state, and those
// pressed since are held down for this one.
void latch();

}  // namespace key_latch
