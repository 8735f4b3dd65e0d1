// The interface: one function per panel, each reading the model (lab::Lab and its trace)
// and writing what the person asks for into `next`, the state applied after the frame.
#pragma once

#include <map>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "export.h"
#include "heatmap_view.h"
#include "history.h"
#include "i18n.h"
#include "lab.h"
#include "requests.h"

namespace ui {

// What the interface remembers between frames that is not part of the shareable state (the
// state's own `ui` key, full or compact, is lab::Density). Passed to every panel as `ui`.
struct Memory {
  HeatmapView stage_views[lab::kStepCount];  // step 0's is its result, Q
  HeatmapView projection_views[6];           // step 0's X, W_Q, W_K, W_V, K, V
  // The geometry plot's arrow being dragged (0: a query, 1: a key; row -1: none) and the
  // plot's half-width, held while dragging so the axes stay put under the pointer.
  struct Drag {
    int matrix = 0, row = -1;
    float range = 1;
  } geometry_drag;
  HeatmapView compare_views[3];
  std::map<std::string, HeatmapView> experiment_maps;  // the experiment views' heatmaps, by id
  std::map<int, render::Heatmap> head_maps;             // loaded heads' small maps, by head
  bool playing = false;
  // The ▶ Play button was drawn in the last frame (the stepper's): only then does Space play,
  // and only then can a play go on (elsewhere nothing would ever stop it).
  bool play_shown = false;
  double last_step = 0;          // time of the last automatic step while playing
  bool paint_mask = false;       // clicks on the mask stage toggle cells
  std::vector<std::string> notes;  // ignored URL keys and values, shown until dismissed
  // Keys pressed since the last frame, queued by the window's key callback: a quick tap can
  // go down and up between two frames, which ImGui 1.86's key state would miss.
  enum class Key { left, right, up, down, enter, escape, space, undo, redo };
  std::vector<Key> keys;
  // Keyboard focus (accessibility.h): the stepper or a cell of the current stage's heatmap.
  enum class Focus { stepper, cells };
  Focus focus = Focus::stepper;
  int cell_row = 0, cell_col = 0;
  bool show_focus = false;     // focus rings, after keyboard use (as :focus-visible)
  std::string announcement;    // the focused cell, for screen readers; taken by the app
  std::uint64_t described = ~0ull;  // what the screen-reader table last showed
  // The reader's system settings (the page's media queries in the browser).
  bool prefers_dark = false, reduced_motion = false;
  bool touch_screen = false;  // a coarse pointer: larger targets (theme.h)
  std::string export_message;  // the Export menu's last outcome ("Saved to …", "Copied …")
  // What the platform offers beside the lab: the header's "Lesson" (the browser's page, where a
  // lesson is beside it) and "Open data…" (its file chooser, in a page of its own).
  bool lesson_offered = false, open_data_offered = false;
  // Undo and redo (history.h): the app records every change and applies the steps asked for
  // by the header's buttons and the keys (negative: undo) after the frame.
  lab::History history;
  // Practice mode (practice.cpp): the typed answer, and why the last answer could not be read.
  char practice_input[128] = {};
  std::string practice_error;
  // Figure mode (the link's `figure`, figure_mode.cpp): the content height each card part
  // needed when last drawn (ImGui 1.86's child windows do not size themselves), the whole
  // figure's height in the last frame (0: not a figure), the experiment view's part being
  // drawn ("": all of it).
  std::map<std::string, float> part_heights;
  float figure_height = 0;
  // The whole lab in its one scrolling column: the height that shows all of it (0 side by
  // side, where the panels fill the window). A host that sizes its frame to it (a notebook's
  // output) is told, as of a figure's height.
  float content_height = 0;
  bool fit_content = false;  // the host sizes the frame to content_height: one column always
  std::string section;
  // The narrow window's reading order (layout.cpp): the header went narrow (its formula is the
  // column's first line); the ☰ menu asked for the inputs (opened and brought into view); the
  // view, step and query last shown, so that a new view starts at its top and a new step or
  // query brings its card into view.
  bool header_narrow = false;
  bool show_inputs = false;
  int shown_view = -1, shown_step = -1, shown_query = -1;
  // view=model (experiments/model.cpp): the heads' small maps (the head opened large is the
  // state's, head=; the chosen character too, at=), and the composition pair shown as a map.
  std::map<int, render::Heatmap> model_maps;
  bool model_head_clicked = false;  // a head's map was clicked: the head opened large comes into view
  int model_composition = 0;        // an index in lm::Circuits::composition
  // The frame's requests (requests.h) as the panels make them; draw() hands them out, so that
  // nothing here outlives its frame.
  std::vector<Request> requests;
};

// The formula the lab computes, as the header shows it.
inline constexpr const char* kFormula = "softmax(QKᵀ / √d_k) · V";

// One frame: every panel laid out in the window. Returns the next state and the requests.
Frame draw(const lab::Lab& lab, Memory& ui);

// A hint for the device in hand: what to do with a mouse and keys, or with a finger
// (ui.touch_screen), both messages (translated here).
const char* device_hint(const Memory& ui, const char* pointer, const char* touch);
// Scrolls the region being drawn so that what comes next starts at its top (next frame).
void scroll_to_here(Memory& ui);

// As ImGui::TextWrapped("%s", text), but broken between words only: never inside a number
// (text/wrap.h).
void text_wrapped(std::string_view text);
// The height text_wrapped() (heading()) gives `text` in a column `width` pixels wide, with the
// spacing after it: what a card holds above its plot, measured before the card begins.
float text_wrapped_height(std::string_view text, float width);
float heading_height(std::string_view title, float width);
// A card's title in the heading font, wrapped so: on two lines in a narrow card rather than
// cut at its edge.
void heading(std::string_view title);
// The current table's header row: its columns' names, each wrapped in its column, where
// ImGui::TableHeadersRow() would cut a long name in a phone's narrow column (each an item of
// kind `label` in layout()).
void table_headers_wrapped();
// A column for it (instead of ImGui::TableSetupColumn): stretched in proportion to the wider of
// its name's widest word and `content_w` (its cells' widest), so that where the table has room
// for every column's widest word, no heading is cut inside a word.
void table_column_wrapped(const char* name, float content_w = 0);

// [SECTION] panels (each in its own file)
void header(const lab::Lab& lab, lab::State& next, Memory& ui);
// The header's parts a figure may show alone: Previous / Play / Next and the step chips; the
// notes about ignored link values (dismissible).
void stepper(const lab::State& s, lab::State& next, Memory& ui);
void link_notes(Memory& ui);
// Figure mode (figure_mode.cpp): only the parts the state's `figure` names, laid out to the
// width, no scrolling; sets ui.figure_height.
void figure_mode(const lab::Lab& lab, lab::State& next, Memory& ui);
// In a scrolling column: what goes under the current step's row of cards (its explanation),
// and whether to bring that row to the column's top (a new step or query).
struct ColumnExtras {
  std::function<void()> under_current;
  bool bring_into_view = false;
};
// `height` is the room for all cards; 0 sizes each card to its matrix (in a scrolling column).
void stages(const lab::Lab& lab, lab::State& next, Memory& ui, float height, const ColumnExtras& extras = {});
// One stage's card (steps 1 to 5) of the given size, and the height its matrix needs at `width`
// in a column that scrolls or sizes itself.
void stage_card(const lab::Lab& lab, lab::State& next, Memory& ui, lab::Step step, ImVec2 size);
float stage_card_height(const lab::Lab& lab, float width);
// How many stage cards stages() puts on a row `width` wide, and in how many rows: in a scrolling
// column by the width alone; in a fixed `height` (side by side), the rows that give the matrices
// the largest cells while every card fits.
struct StageGrid {
  int per_row, rows;
};
StageGrid stage_grid(const lab::Lab& lab, float width, float height = 0);
// Loaded data with several heads (heads_card.cpp): every head's weights as small maps, and the
// shown head's selector; a card beside the stages.
void heads_card(const lab::Lab& lab, lab::State& next, Memory& ui);
// view=compare: the attention weights under each compared scale, side by side.
void compare_scales(const lab::Lab& lab, lab::State& next, Memory& ui, float height);
void arithmetic(const lab::Lab& lab, lab::State& next, Memory& ui);
// The selected query as a drop-down, with the hint of how else to choose it.
void query_picker(const lab::Lab& lab, lab::State& next, Memory& ui);
// Step 0 (projections.cpp): X and the projections W_Q, W_K, W_V making Q, K, V.
void projections(const lab::Lab& lab, lab::State& next, Memory& ui, float height);
// With d_k = 2 (geometry.cpp): the queries and keys as arrows in the plane, the selected
// query's projections of the keys; dragging an arrow's tip edits its row of Q or K.
void geometry(const lab::Lab& lab, lab::State& next, Memory& ui);
// The experiment views (src/ui/experiments/): the one lab.state().view names.
void experiment(const lab::Lab& lab, lab::State& next, Memory& ui);
void inputs(const lab::Lab& lab, lab::State& next, Memory& ui);
// The inputs panel's sections, each a figure's part of its own.
void shape_control(const lab::Lab& lab, lab::State& next, Memory& ui);
void scale_control(const lab::Lab& lab, lab::State& next, Memory& ui);
void mask_control(const lab::Lab& lab, lab::State& next, Memory& ui);
void matrices(const lab::Lab& lab, lab::State& next, Memory& ui);
// mode=practice (practice.cpp): the question, its answer field or choices, the verdict with
// the arithmetic, and the session's score.
void practice(const lab::Lab& lab, lab::State& next, Memory& ui);
// Predict, then see: while a question about the screen awaits its answer, the steps from this
// one on (where the answer is) keep their numbers hidden; lab::kStepCount when none are.
int first_hidden_step(const lab::Lab& lab);
inline constexpr const char* kHiddenUntilAnswered =
    N_("Hidden until you answer the practice question: make your prediction first, then see it here.");
void keyboard(const lab::Lab& lab, lab::State& next, Memory& ui);
// Whether a key pressed now means something to the interface (keyboard() would act on it):
// the page gives every other key to the page around the lab (docs/embed.md). `key` is the
// DOM's KeyboardEvent.key; `command`: Ctrl or Cmd is held.
bool uses_key(const lab::Lab& lab, const Memory& ui, const std::string& key, bool command);

// The matrix a stage shows (Q, S, S·scale, S·scale + mask, A, O) for the shown head.
const attn::Matrix& stage_values(const lab::Lab& lab, lab::Step step);
// Whether a stage's columns are keys (else dimensions: d_k for Q, d_v for O).
bool columns_are_keys(lab::Step step);
// The stages' names as the interface shows them ("S = QKᵀ", "+ mask", ...).
const char* stage_title(lab::Step step);

}  // namespace ui
