// The link's `figure`: an embedded figure shows only the parts its text needs (docs/embed.md,
// "Figures"). Each view's parts are named here once: the parser keeps the parts of a link that
// the final view has, the interface draws them (src/ui/figure_mode.cpp, and each experiment
// view's sections), and tests/unit/docs_test.cpp holds docs/embed.md's table to this one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "choices.h"

namespace lab {

// The parts a view has, in the order docs/embed.md lists them.
std::vector<std::string_view> figure_parts(View view);
bool is_figure_part(View view, std::string_view name);
// "header, steps, … or practice" (`or_word` translated): the view's parts, for a note.
std::string figure_part_names(View view, const char* or_word);

}  // namespace lab
