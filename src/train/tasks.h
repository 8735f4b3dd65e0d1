// The toy tasks, one row each in one table: each makes one attention pattern necessary, so
// the learner can watch it form. A batch holds token sequences and, for every position, the
// token the model must predict there, or -1 where the task scores nothing.
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
//
// A new task is an enumerator of Task (config.h), its row in tasks.cpp's table and the
// function that makes its data; the link key, the training request, the chooser and the
// validation all read the row.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config.h"

namespace train {

// One task: what names it, how it is shown, the smallest problem it can be posed as, where
// its training starts and its data.
struct TaskSpec {
  Task task;
  const char* name;   // in links (task=) and the training request
  const char* label;  // the chooser's item, in English (N_: translated where it is shown)
  const char* note;   // what to watch as it learns (N_)
  int min_seq;        // the shortest sequence it can be posed in
  // The smallest vocabulary its data can be drawn from at this sequence length (distinct
  // tokens where the task needs them).
  int (*min_vocab)(int seq);
  // Its starting point over Config's own settings: the ones with which it is learned
  // (held-out accuracy ≥ 95%) within a few hundred steps.
  void (*start)(Config& c);
  // One sequence x (c.seq tokens) and its targets y, which come filled with -1 (not scored).
  void (*fill)(const Config& c, std::mt19937& rng, int* x, int* y);
};

// Every task, in the order of Task.
const std::vector<TaskSpec>& tasks();
const TaskSpec& task_spec(Task task);

struct Batch {
  int size = 0, seq = 0;
  std::vector<int> tokens;   // (size, seq)
  std::vector<int> targets;  // (size, seq); -1: not scored
};

// `size` fresh sequences of the configuration's task, drawn from `rng`.
Batch make_batch(const Config& c, int size, std::mt19937& rng);

// The smallest vocabulary the task accepts at this sequence length.
int min_vocab(Task task, int seq);

}  // namespace train
