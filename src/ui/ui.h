// The interface: one function per panel, each reading the model (lab::Lab and its trace)
// and writing what the person asks for into `next`, the state applied after the frame.
#pragma once

#include <string>
#include <vector>

#include "heatmap_view.h"
#include "lab.h"

namespace ui {

// What the interface remembers between frames that is not part of the shareable state.
struct Ui {
  HeatmapView stage_views[lab::kStepCount];
  HeatmapView compare_views[3];
  bool playing = false;
  double last_step = 0;          // time of the last automatic step while playing
  bool paint_mask = false;       // clicks on the mask stage toggle cells
  std::vector<std::string> notes;  // ignored URL keys and values, shown until dismissed
  // Arrow keys pressed since the last frame, queued by the window's key callback: a quick
  // tap can go down and up between two frames, which ImGui 1.86's key state would miss.
  enum class Arrow { left, right, up, down };
  std::vector<Arrow> arrows;
};

// One frame: every panel laid out in the window. Returns the next state.
lab::State draw(const lab::Lab& lab, Ui& ui);

// [SECTION] panels (each in its own file)
void header(const lab::Lab& lab, lab::State& next, Ui& ui);
// `height` is the room for all cards; 0 sizes each card to its matrix (in a scrolling column).
void stages(const lab::Lab& lab, lab::State& next, Ui& ui, float height);
// view=compare: the attention weights under each compared scale, side by side.
void compare_scales(const lab::Lab& lab, lab::State& next, Ui& ui, float height);
void arithmetic(const lab::Lab& lab, lab::State& next);
void inputs(const lab::Lab& lab, lab::State& next, Ui& ui);
void keyboard(const lab::Lab& lab, lab::State& next, Ui& ui);

// The stages' names as the interface shows them ("S = QKᵀ", "+ mask", ...).
const char* stage_title(lab::Step step);

}  // namespace ui
