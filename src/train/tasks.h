// The toy tasks: each makes one attention pattern necessary, so the learner can watch it
// form. A batch holds token sequences and, for every position, the token the model must
// predict there, or -1 where the task scores nothing.
//
//   reverse    target[i] = x[n−1−i]                       every query reads its mirror
//                                                         position: an anti-diagonal map
//   induction  noise, a block of L distinct tokens, the   causal; a previous-token head in
//              block again; in the repeat, target[t] =    layer 1 and an induction head in
//              x[t+1] (L varies, so position alone does   layer 2 ("after this token came
//              not tell where the earlier copy is)        that one last time")
//   sort       distinct tokens; target[i] = the next      each token finds its successor in
//              larger token present (the largest: itself) sorted order, the step a sort
//                                                         repeats; one layer of attention
//                                                         can do it (counting ranks cannot
//                                                         be done without an MLP)
//   max        target[i] = max_j x[j] at every position   every query reads the largest key
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "config.h"

namespace train {

struct Batch {
  int size = 0, seq = 0;
  std::vector<int> tokens;   // (size, seq)
  std::vector<int> targets;  // (size, seq); -1: not scored
};

// `size` fresh sequences of the configuration's task, drawn from `rng`.
Batch make_batch(const Config& c, int size, std::mt19937& rng);

// The smallest vocabulary the task accepts at this sequence length (distinct tokens where
// the task needs them).
int min_vocab(Task task, int seq);

}  // namespace train
