#include "key_latch.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <array>
#include <cstddef>
#include <vector>

#include "app.h"

namespace key_latch {
namespace {

struct Keys {
  std::vector<int> pressed;                    // GLFW keys pressed since the last frame
  std::vector<int> held;                       // held down for this frame, already released
  std::array<bool, GLFW_KEY_LAST + 1> down{};  // as the keyboard has them
};
Keys g_keys;

}  // namespace

void event(int key, int action) {
  if (key < 0 || key > GLFW_KEY_LAST) return;
  g_keys.down[std::size_t(key)] = action != GLFW_RELEASE;
  if (action == GLFW_PRESS) g_keys.pressed.push_back(key);
}

void latch() {
  ImGuiIO& io = ImGui::GetIO();
  for (const int k : g_keys.held) io.KeysDown[k] = g_keys.down[std::size_t(k)];
  g_keys.held.clear();
  for (const int k : g_keys.pressed)
    if (!io.KeysDown[k]) {
      io.KeysDown[k] = true;
      g_keys.held.push_back(k);
      wake();  // the frame that releases it
    }
  g_keys.pressed.clear();
}

}  // namespace key_latch
