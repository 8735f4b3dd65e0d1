#include "wrap.h"

namespace text {

std::string wrap_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& width_of) {
  std::string out(text);
  std::size_t line_start = 0, last_space = std::string::npos;
  for (std::size_t i = 0; i <= out.size(); ++i) {
    if (i < out.size() && out[i] != ' ' && out[i] != '\n') continue;
    // A word ends at i: when the line up to it is too wide, it starts the next line instead.
    if (last_space != std::string::npos && width_of(std::string_view(out).substr(line_start, i - line_start)) > width) {
      out[last_space] = '\n';
      line_start = last_space + 1;
    }
    if (i == out.size()) break;
    if (out[i] == '\n') line_start = i + 1, last_space = std::string::npos;
    else last_space = i;
  }
  return out;
}

}  // namespace text
