// State that arrives as JSON rather than as a link: the object a page script passes to
// attentionLab.setState(), and the postMessage a host page sends an embedded instance
// (docs/embed.md):
//   {"type": "attention-lab:set", "state": {"step": "softmax", "query": 2, "causal": true}}
// Both are turned into a URL fragment, so every value goes through the one state parser.
// Input from strangers: pure, bounded, never throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lab {

struct DecodedState {
  bool accepted = false;           // false: nothing of it may be applied
  std::string fragment;            // the keys and values, percent-encoded, for parse_fragment
  std::vector<std::string> notes;  // one sentence per refused message or skipped key
};

// {"key": string | number | boolean, ...}; other values are skipped with a note.
DecodedState decode_state_object(std::string_view json_text);
// The "attention-lab:set" message; any other shape is refused whole.
DecodedState decode_set_message(std::string_view json_text);

}  // namespace lab
