// Practice mode's kinds of question and their names, apart from the questions themselves so
// that the link's state (`ask`, src/state) can name them without the kernel's headers.
#pragma once

namespace practice {

enum class QuestionKind {
  largest_weight,  // which key the selected query weights most (live)
  weight,          // one weight of the selected query's row, within ±0.01 (live)
  output_row,      // the selected query's output row, within ±0.02 each (live)
  masked_weight,   // an open key's weight in a row with a blocked key
  shape,           // the shape of S or of the output for given shapes
  spread,          // the standard deviation of q·k, q·k/√d_k or q·k/d_k at a d_k and a variance
  fill_pitfall,    // the weight a key keeps when the mask adds −1 instead of −∞
  stable_softmax,  // the softmax of large scores, by subtracting the row maximum
  saturation,      // the softmax's derivative at the winning key, unscaled against 1/√d_k
  score,           // one score of the selected query, q·k times the scale, within ±0.01 (live)
  online_softmax,  // the online softmax's running sum after a block that raises the maximum
  tiled_memory,    // MiB of the n × n score matrix, or of a tiled kernel's running state
  grouped_kv,      // one layer's KV cache in MiB when query heads share key/value heads
  score_gradient,  // the gradient reaching a scaled row's winning score, against the unscaled row's
  induction_key,   // the key an induction head looks at, from a character of a text's second copy
  copying_head,    // which of three heads' OV maps copies (the diagonal wins every row)
  switch_off,      // an induction head's weight on its key once a head that wrote into the keys is off
};
// Each kind's name, in QuestionKind's order: in question ids, the page API's "kind" and the
// link's `ask`. A new kind is an enumerator and a name here, and its row in practice.cpp's
// table of makers (checked at compile time to have one per kind).
inline constexpr const char* kKindNames[] = {"largest_weight", "weight",       "output_row",
                                             "masked_weight",  "shape",        "spread",
                                             "fill_pitfall",   "stable_softmax", "saturation",
                                             "score",          "online_softmax", "tiled_memory",
                                             "grouped_kv",     "score_gradient", "induction_key",
                                             "copying_head",   "switch_off"};

}  // namespace practice
