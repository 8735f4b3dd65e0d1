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

std::vector<std::size_t> soft_breaks(std::string_view text, float width,
                                     const std::function<float(std::string_view)>& width_of) {
  std::vector<std::size_t> breaks;
  std::size_t line_start = 0, after_space = 0;  // after_space: where the line may break (0: nowhere yet)
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i + 1;  // the character at i ends before `end`
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    if (text[i] == '\n') {
      breaks.push_back(line_start = end);
      after_space = 0;
    } else if (text[i] == ' ') {
      after_space = end;  // a space may hang past the edge: it ends its line
    } else if (i > line_start && width_of(text.substr(line_start, end - line_start)) > width) {
      line_start = after_space > line_start ? after_space : i;
      breaks.push_back(line_start);
      after_space = 0;
    }
    i = end;
  }
  return breaks;
}

}  // namespace text
