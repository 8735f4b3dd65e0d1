#include "figure_parts.h"

#include <algorithm>
#include <iterator>

namespace lab {
namespace {

// Every view has its header; the walkthrough's two also their stepper, arithmetic and inputs
// (the whole panel, or one of its controls: `scale-control` is the control, `scale` the stage).
// An experiment has its whole body (`view`), its opening text, its controls and its cards.
constexpr std::string_view kWalkthrough[] = {
    "header", "steps", "input", "scores", "scale", "mask", "softmax", "output", "arithmetic", "geometry", "inputs",
    "shape-control", "scale-control", "mask-control", "matrices", "practice"};
constexpr std::string_view kCompare[] = {"header",        "steps",         "view",         "arithmetic", "inputs",
                                         "shape-control", "scale-control", "mask-control", "matrices"};
constexpr std::string_view kScaling[] = {"header", "view", "intro", "controls", "histograms", "weights", "sweep"};
constexpr std::string_view kGradients[] = {"header", "view", "intro", "controls", "maps", "backward", "sweep"};
constexpr std::string_view kPitfalls[] = {"header", "view", "intro", "controls", "maps", "future"};
constexpr std::string_view kStability[] = {"header", "view", "intro", "plots", "thresholds", "fills"};
constexpr std::string_view kTiling[] = {"header", "view", "intro", "controls", "walk", "row", "outputs", "memory"};
constexpr std::string_view kHeads[] = {"header", "view", "intro", "controls", "shapes", "maps", "concat"};
constexpr std::string_view kCost[] = {"header", "view", "intro", "controls", "plots", "time-memory", "table"};
constexpr std::string_view kTrain[] = {"header", "view", "intro", "controls", "play", "curves", "example", "maps"};
constexpr std::string_view kModel[] = {"header", "view",  "intro", "weights", "learning", "text",    "loss", "predictions", "why",
                                       "edit",   "heads", "head",  "circuit", "ov",   "qk",          "positions",
                                       "composition", "pairs"};

struct ViewParts {
  View view;
  const std::string_view* begin;
  const std::string_view* end;
};
template <std::size_t N>
constexpr ViewParts row(View view, const std::string_view (&parts)[N]) {
  return {view, parts, parts + N};
}
constexpr ViewParts kParts[] = {
    row(View::walkthrough, kWalkthrough), row(View::compare, kCompare),     row(View::scaling, kScaling),
    row(View::gradients, kGradients),     row(View::pitfalls, kPitfalls),   row(View::stability, kStability),
    row(View::tiling, kTiling),           row(View::heads, kHeads),         row(View::cost, kCost),
    row(View::train, kTrain),             row(View::model, kModel)};
static_assert(in_view_order(kParts));

}  // namespace

std::vector<std::string_view> figure_parts(View view) {
  const ViewParts& row = kParts[std::size_t(view)];
  return {row.begin, row.end};
}

bool is_figure_part(View view, std::string_view name) {
  const ViewParts& row = kParts[std::size_t(view)];
  return std::find(row.begin, row.end, name) != row.end;
}

std::string figure_part_names(View view, const char* or_word) {
  const std::vector<std::string_view> parts = figure_parts(view);
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i)
    text += (i == 0 ? "" : i + 1 == parts.size() ? " " + std::string(or_word) + " " : ", ") + std::string(parts[i]);
  return text;
}

}  // namespace lab
