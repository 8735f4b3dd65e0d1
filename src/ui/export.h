// Export of what is on screen: the current stage's heatmap as a PNG figure (figure.h), the
// shown head's matrices as CSV, the state and trace as JSON, and the <attention-lab …> line
// that embeds it.
// The files are built here; the app delivers them (a file beside the working directory
// natively, a download in the browser; the clipboard) when the frame's request::Export asks.
#pragma once

#include <string>

#include "lab.h"

namespace ui {

struct Memory;

enum class ExportKind { png, csv, json, embed };

struct ExportFile {
  std::string name;  // suggested file name, e.g. "attention-lab-softmax.png"
  std::string mime;
  std::string bytes;  // the file's contents (text for CSV and JSON)
};

// What the platform made of a file: whether it was written (or handed to the browser), and
// the sentence the Export menu shows ("Saved to …", "Could not write …").
struct ExportOutcome {
  bool ok = false;
  std::string message;
};

// Every matrix of the shown head in long form, one value per line:
// "matrix,row,col,value" with matrix in q, k, v, scores, scaled, masked, weights, output
// (scores = QKᵀ, masked = scaled + mask, −∞ written "-inf"), values exact to float precision.
std::string matrices_csv(const lab::Lab& lab);
// {"fragment": the state's short fragment, "state": every key (as attentionLab.getState()),
//  "trace": the computation in the contract's response format (as attentionLab.trace())}.
std::string state_json(const lab::Lab& lab);
// <attention-lab preset="…" step="…" theme="…"></attention-lab>: the state's fragment keys
// as attributes (lab::to_fragment is the one serialiser), the theme always, so the embed
// looks like the screen whatever the host's preference.
std::string embed_code(const lab::State& state);

// What an export made, for the platform to deliver: a file to save (PNG, CSV, JSON), the
// embed code to copy, or why nothing was made (the sentence the Export menu shows).
struct ExportMade {
  ExportFile file;
  std::string text_to_copy;
  std::string refusal;
};
// Builds the file: the PNG from the heatmap of the current stage as last drawn (with its title,
// labels, values, colour scale and the configuration's link), the CSV, the JSON, or the embed
// code.
ExportMade make_export(const lab::Lab& lab, const Memory& ui, ExportKind kind);
// The header's "Export" button (its width, to lay out the header) and its menu.
float export_button_width();
void export_menu(const lab::Lab& lab, Memory& ui);

}  // namespace ui
