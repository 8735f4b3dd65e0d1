// What every experiment view shares: the sentence saying what to notice, the note for bad
// parameters, titled heatmaps laid out in a grid of cards, and the view functions themselves.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "plot.h"
#include "ui.h"

namespace ui::views {

// [SECTION] the views (one file each)
void scaling(const lab::Lab& lab, lab::State& next, Memory& ui);
void gradients(const lab::Lab& lab, lab::State& next, Memory& ui);
void pitfalls(const lab::Lab& lab, lab::State& next, Memory& ui);
void stability(const lab::Lab& lab, lab::State& next, Memory& ui);
void tiling(const lab::Lab& lab, lab::State& next, Memory& ui);
void heads(const lab::Lab& lab, lab::State& next, Memory& ui);
void cost(const lab::Lab& lab, lab::State& next, Memory& ui);
void train(const lab::Lab& lab, lab::State& next, Memory& ui);
void model(const lab::Lab& lab, lab::State& next, Memory& ui);

// [SECTION] shared pieces
// A view's parts (lab::figure_parts, a figure's `figure=…`), each drawn by its function: all of
// them (but those only for figures), in this order, in the full lab and for a figure's `view`
// part; in a figure, only the part being drawn (ui.section).
struct Section {
  const char* part;
  std::function<void()> draw;
  bool figure_only = false;  // a figure's lighter choice of another part's content: not in the full view
};
void sections(const lab::Lab& lab, const Memory& ui, std::initializer_list<Section> list);
void notice(const char* text);  // what the student should notice, in the muted colour
// Puts the next control, `field` wide and labelled `label`, beside the last one where the line
// has room for both, else below it (a phone's narrow column).
void beside_if_room(float field, const char* label);
// The experiment's message for bad parameters, on the note colour; false when there is one
// (the view then draws nothing else).
bool parameters_ok(const lab::Lab& lab);

// Cards side by side: as many per row as keep each at least `min_width` wide (unscaled).
class Grid {
 public:
  Grid(int count, float min_width);
  float width() const { return width_; }
  int per_row() const { return per_row_; }
  void begin(const char* id, float height);  // a card of the grid's width, `height` pixels
  void end();

 private:
  int per_row_ = 1, index_ = 0;
  float width_ = 0;
};

// The least height (unscaled pixels) of a card's plot area, inside its axes: three y ticks
// (2.2 text lines apart) and a curve's shape between them.
inline constexpr float kLeastPlotArea = 90;

// A card of the grid holding one plot under its title and a muted note (each unless empty); taller
// than `height` where that would leave the plot area less than kLeastPlotArea.
void plot_card(Grid& grid, const char* id, float height, const std::string& title, const std::string& note,
               const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<PlotMarker>& markers = {});

// Where a column is too narrow (`narrow`: a phone's) for a group of plot cards to be read
// together at kLeastPlotArea each, they show one at a time behind buttons above them, one per
// name, each a finger's target (in one row, two where a name would not fit): returns the index
// of the one shown (kept per `id` in the window). Elsewhere draws nothing and returns -1: every
// card shows.
int one_at_a_time(Memory& ui, const char* id, bool narrow, const std::vector<std::string>& names);
inline bool shown(int one, int i) { return one < 0 || one == i; }

// The height of a card holding `content` unscaled pixels under `lines` lines of text.
float card_height(float content, int lines);

// Names set as a column in a mono font: each padded with spaces to the longest, then `gap`
// spaces. Counted in characters, not bytes: a translation's accents take two bytes each.
std::vector<std::string> aligned(std::initializer_list<const char*> names, int gap);

using Labels = std::function<std::string(int)>;
Labels indexed(const char* prefix);  // "k0", "k1", …

struct MapSpec {
  std::string title, caption;  // caption: one muted line under the title ("" for none)
  const attn::Matrix* values = nullptr;
  bool diverging = false;      // ±max|x| around zero; otherwise lo … hi
  float lo = 0, hi = 1;
  float bound = 0;             // a diverging map's fixed half-width; 0: ±max|x| (HeatmapSpec::bound)
  Labels rows, cols;
  int highlight_row = -1;
  bool zoom_to_read = false;   // HeatmapSpec::zoom_to_read
  bool picture = false;        // HeatmapSpec::picture
  float height = 0;            // room for the heatmap with its labels; 0: the rest of the card
  std::uint64_t version = 0;   // changes whenever *values does; 0: the experiment's version
};
// A titled heatmap through the walkthrough's HeatmapView (one per id, kept in `ui`).
HeatmapHit map(Memory& ui, const lab::Lab& lab, const char* id, const MapSpec& spec);

}  // namespace ui::views
