// The interactive items of the last frame drawn, with their visible labels, kinds and
// rectangles: what attentionLab.layout() reports (tests find controls by label, not by pixel)
// and what a touch asks before it decides between dragging a control and scrolling.
//
// Dear ImGui reports every item it adds and the label of most (its test-engine hooks, on in
// this build: IMGUI_ENABLE_TEST_ENGINE). Some widgets look alike from there (a radio button
// and a button, a slider and a text field); the few call sites that draw those say what comes
// next with next_item(), and the heatmaps say whether they pan, paint or zoom.
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace ui::input {

// `input`: a field for a number; `text`: one for free text.
// `tooltip`: not a control but a tooltip on screen (tests check that none stays after a touch).
enum class ItemKind { button, checkbox, radio, combo, slider, drag, input, text, heatmap, plot, menu, header, tooltip, label };
const char* item_kind_name(ItemKind kind);

struct Item {
  ImGuiID id = 0;
  std::string label;  // the visible text (ImGui's ##id part removed)
  ItemKind kind = ItemKind::button;
  ImVec2 min, max;    // in the framebuffer's pixels, label included (layout() reports these)
  ImVec2 shown_min, shown_max;  // the part its window shows (what a finger can hit)
  bool grabs = false; // a one-finger drag starting here moves the item, not the page
  bool zooms = false; // a heatmap that Ctrl+wheel and a pinch zoom
  // A heatmap's text: its cell values' em in framebuffer pixels (0: no values written), the
  // row and column labels it shows, in order, and its colour scale's two ends as written.
  // A plot's: its y axis's tick labels as row labels, its x axis's as column labels.
  float value_em = 0;
  std::vector<std::string> row_labels, col_labels, legend;
  // Where only parts of it grab (the geometry plane's arrow tips): a drag starting within
  // `grab_reach` of a spot moves the item, anywhere else scrolls.
  std::vector<ImVec2> grab_spots;
  float grab_reach = 0;
  // Whether `p` is on one of grab_spots.
  bool spot_at(ImVec2 p) const;
};

// What the next item is, where ImGui cannot tell (and, if `label` is given, its visible text:
// a combo's shown choice, a field whose label ImGui draws apart). `grabs`: a heatmap that pans
// or paints under a drag (sliders and drags always grab); `zooms`: a heatmap that zooms.
void next_item(ItemKind kind, std::string_view label = {}, bool grabs = false, bool zooms = false);

// What the heatmap drawn as item `id` in this frame writes (Item's value_em, labels and legend).
void describe_heatmap(ImGuiID id, float value_em, const std::vector<std::string>& row_labels,
                      const std::vector<std::string>& col_labels, const std::vector<std::string>& legend = {});

// The tick labels the plot drawn as item `id` in this frame writes on its x and y axes.
void describe_plot(ImGuiID id, const std::vector<std::string>& x_ticks, const std::vector<std::string>& y_ticks);

// A text that is not a control but whose place tests read (a table's column heading): an item
// of kind `label` over [min, max], the box the text takes (item_at never finds it).
void describe_label(std::string_view text, ImVec2 min, ImVec2 max);

// The spots of item `id` (drawn in this frame) that take a drag (Item's grab_spots).
void describe_grab_spots(ImGuiID id, std::vector<ImVec2> spots, float reach);

// Called around each frame by the app: a new list starts, and the finished one is kept.
void begin_frame();
void end_frame();
const std::vector<Item>& last_frame_items();
// The topmost item of the last frame under `p` (tooltips aside), or nullptr.
const Item* item_at(ImVec2 p);

}  // namespace ui::input
