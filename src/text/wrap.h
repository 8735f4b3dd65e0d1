// Prose broken into lines at spaces only. Dear ImGui 1.86's TextWrapped also breaks after '.'
// and ',', which splits a number across two lines ("0." / "0429"); the interface wraps its
// sentences that carry numbers here instead (ui::text_wrapped).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace text {

// `text` with a line break in place of each space where the line would grow wider than
// `width` (`width_of`: a piece of text's width). Its own line breaks stay; a word wider than
// the column gets a line of its own and overflows it rather than being cut.
std::string wrap_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& width_of);

}  // namespace text
