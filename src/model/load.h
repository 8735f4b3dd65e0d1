// Data a person brings to the walkthrough (docs/loading-data.md): a request in the
// contract's format (docs/contract.md), parsed and checked by the contract's own parser, then
// mapped onto the walkthrough's state: one sequence (or a padded batch) of one head, as
// cross-attention with typed Q, K and V, within the interface's limits (state.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "state.h"

namespace lab {

struct Loaded {
  std::string error;               // one sentence naming the field; then `state` is not set
  State state;                     // the walkthrough showing the data; Lab::set_state normalises it
  std::vector<std::string> notes;  // one sentence per thing cut or changed to fit
};

// `request_json`: the request, or several layers' as {"layers": [request, ...]} (of one shape,
// scale and causal choice). `options_json`: {"tokens": {"queries": [..], "keys": [..]},
// "head": h, "layer": l, "name": "q.npy, k.npy, v.npy", "link": false (no note on what a link
// keeps: a page that carries its data)}, every field optional ("" for none). `current`
// gives what loading keeps (theme, ui, mode, step, seed). Never throws.
Loaded load_request(std::string_view request_json, std::string_view options_json, const State& current);

}  // namespace lab
