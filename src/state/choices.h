// The state's choices as enums, each spelled once: Names<E>::list holds the link's spelling of
// every value in the enum's order, and name_of / parse_name are the only way between the two.
// The views' row (name and title) is the lowest layer of the registry of views; the model's
// computations and the interface's drawings are tables indexed by View beside their code
// (src/model/experiment.cpp, src/ui/experiments/common.cpp), each checked at compile time to
// have a row per view.
#pragma once

#include <cstddef>
#include <iterator>
#include <string_view>

#include "attention.h"  // attn::ScaleMode, attn::Causal: the state's choices are the kernel's
#include "i18n.h"       // N_(): the views' titles are messages

namespace lab {

// The link's `view`: the walkthrough's two views, then the experiments.
enum class View { walkthrough, compare, scaling, gradients, pitfalls, stability, tiling, heads, cost, train, model };
// Self-attention: Q, K, V come from one input X (n_k = n_q, d_v = d_k). Cross: Q, K, V are
// given directly and all four sizes are free. The link's `attn`.
enum class Attention { self, cross };
enum class Theme { light, dark, system };  // system: follows the reader's setting ("auto")
enum class Language { en, es, system };    // system: the reader's language ("auto"; i18n.h)
// How much of the interface shows: everything, or the figure alone (the link's `ui`).
enum class Density { full, compact };
enum class Mode { explore, practice };  // practice: questions beside the walkthrough
// view=pitfalls: the mistake shown beside the right result (experiments::pitfalls names its
// cases the same way).
enum class Pitfall { no_scaling, divide_by_dk, fill_minus_one, fill_zero, no_causal_mask, fully_masked_row };
// view=model's weights: the lab's language model, its one-layer twin (docs/model.md), or a
// model opened from its files (docs/your-model.md; a link writes its name, never "opened").
enum class LanguageModelChoice { lab, one_layer, opened };

// Every view, in the order the view selector lists them, with the title it shows.
struct ViewRow {
  View view;
  const char* name;
  const char* title;
};
inline constexpr ViewRow kViews[] = {
    {View::walkthrough, "walkthrough", N_("Walkthrough")}, {View::compare, "compare", N_("Compare scales")},
    {View::scaling, "scaling", N_("Why √d_k")},             {View::gradients, "gradients", N_("Gradients")},
    {View::pitfalls, "pitfalls", N_("Pitfalls")},          {View::stability, "stability", N_("Stability")},
    {View::tiling, "tiling", N_("Tiling")},                {View::heads, "heads", N_("Heads")},
    {View::cost, "cost", N_("Cost")},                      {View::train, "train", N_("Training lab")},
    {View::model, "model", N_("A trained model")}};
inline constexpr std::size_t kViewCount = std::size(kViews);

// Whether a table indexed by an enum has its rows in the enum's order (its `view` at index i
// is View(i)): a table that lists a view twice or skips one fails to build.
template <class Row, std::size_t N>
constexpr bool in_view_order(const Row (&rows)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (rows[i].view != View(i)) return false;
  return N == kViewCount;
}
static_assert(in_view_order(kViews));

// Every view after the walkthrough's two is an experiment (the stepper gives way to its own
// controls).
constexpr bool is_experiment_view(View view) { return view != View::walkthrough && view != View::compare; }

template <class E>
struct Names;  // Names<E>::list: the link's spelling of each value of E, in E's order
template <>
struct Names<View> {
  static constexpr const auto& list = kViews;
};
template <>
struct Names<Attention> {
  static constexpr const char* list[] = {"self", "cross"};
};
template <>
struct Names<Theme> {
  static constexpr const char* list[] = {"light", "dark", "auto"};
};
template <>
struct Names<Language> {
  static constexpr const char* list[] = {"en", "es", "auto"};
};
template <>
struct Names<Density> {
  static constexpr const char* list[] = {"full", "compact"};
};
template <>
struct Names<Mode> {
  static constexpr const char* list[] = {"explore", "practice"};
};
template <>
struct Names<Pitfall> {
  static constexpr const char* list[] = {"no_scaling",     "divide_by_dk",   "fill_minus_one",
                                         "fill_zero",      "no_causal_mask", "fully_masked_row"};
};
template <>
struct Names<LanguageModelChoice> {
  static constexpr const char* list[] = {"lab", "one-layer", "opened"};
};
// A switch of a link: "0" or "1".
template <>
struct Names<bool> {
  static constexpr const char* list[] = {"0", "1"};
};
// The kernel's scale and causal alignment as a link spells them (a custom scale is its number,
// so it has no name here); the lists follow the kernel's enums, which the asserts pin.
template <>
struct Names<attn::ScaleMode> {
  static constexpr const char* list[] = {"sqrt", "none", "dk"};
};
static_assert(int(attn::ScaleMode::inv_sqrt_dk) == 0 && int(attn::ScaleMode::none) == 1 &&
              int(attn::ScaleMode::inv_dk) == 2 && int(attn::ScaleMode::custom) == 3);
template <>
struct Names<attn::Causal> {
  static constexpr const char* list[] = {"0", "1", "br"};  // none, top-left, bottom-right
};
static_assert(int(attn::Causal::none) == 0 && int(attn::Causal::top_left) == 1 && int(attn::Causal::bottom_right) == 2);

constexpr const char* name_in(const char* name) { return name; }
constexpr const char* name_in(const ViewRow& row) { return row.name; }

template <class E>
constexpr std::size_t count_of() {
  return std::size(Names<E>::list);
}
// The link's name of a value (a value without one, the custom scale, has none: nullptr).
template <class E>
const char* name_of(E value) {
  const std::size_t i = std::size_t(value);
  return i < count_of<E>() ? name_in(Names<E>::list[i]) : nullptr;
}
// The value a link's name stands for; false, and `out` unchanged, for any other text.
template <class E>
bool parse_name(std::string_view text, E& out) {
  for (std::size_t i = 0; i < count_of<E>(); ++i)
    if (text == name_in(Names<E>::list[i])) {
      out = E(i);
      return true;
    }
  return false;
}

}  // namespace lab
