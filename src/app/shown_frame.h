// Whether a frame's picture is the one already on screen. Most frames after an input draw what
// the one before drew (ImGui settles hover and release a frame later; a mouse move over nothing
// wakes the app), and without a GPU each costs the browser a rasterised window: such a frame
// is not drawn. In the browser the canvas then keeps showing its last picture (WebGL presents
// a drawing buffer only when something was drawn into it); natively the buffers are not swapped.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <vector>

class ShownFrame {
 public:
  // True when ImGui's lists, the window's size and clear colour and the heatmaps' pictures
  // (`painted`: render::paints()) differ from the frame last shown; it is then recorded as shown.
  bool differs(const ImDrawData& data, int fb_w, int fb_h, const ImVec4& clear, std::uint64_t painted);
  // The next frame is drawn whatever it holds: the window's contents were lost (an expose,
  // a texture made anew), or the page reads the picture right after the frame.
  void forget() { shown_.clear(); }

 private:
  std::vector<unsigned char> shown_, drawing_;
};
