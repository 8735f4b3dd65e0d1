// Adam (Kingma & Ba), with the usual β₁ = 0.9, β₂ = 0.999, ε = 1e-8, and AdamW's decoupled
// weight decay (Loshchilov & Hutter): each step first shrinks the parameters by lr · decay.
#pragma once

#include "transformer.h"

namespace train {

// One update of p from its gradient g, at step t (1-based); m and v are Adam's moments.
void adam_update(Params& p, Params& m, Params& v, const Params& g, float lr, int t, float weight_decay = 0);

}  // namespace train
