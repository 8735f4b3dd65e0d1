// Prose broken into lines at spaces only. Dear ImGui 1.86's TextWrapped also breaks after '.'
// and ',', which splits a number across two lines ("0." / "0429"); the interface wraps its
// sentences that carry numbers here instead (ui::text_wrapped).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace text {

// `text` with a line break in place of each space where the line would grow wider than
// `width` (`width_of`: a piece of text's width). Its own line breaks stay; a word wider than
// the column gets a line of its own and overflows it rather than being cut.
std::string wrap_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& width_of);

// A text box's soft wrap, which keeps every character: the byte offsets at which `text`'s
// lines begin (0 not included) when it wraps at `width`: after the last space that fits (the
// space ends its line), or, in a word wider than the line, before the first character that
// does not fit (never inside a UTF-8 character). A space never starts a line; its own line
// breaks start lines too.
std::vector<std::size_t> soft_breaks(std::string_view text, float width,
                                     const std::function<float(std::string_view)>& width_of);

}  // namespace text
