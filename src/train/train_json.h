// The training request and response (docs/training.md), shared by `attention-cli train`, the
// kernel module's train() and the page's attentionLab.experiment() in view=train.
#pragma once

#include <string>
#include <string_view>

#include "trainer.h"

namespace train {

struct Request {
  Config config;
  int steps = 300;
};

// Strict, like the attention contract: a bad request throws std::invalid_argument whose
// message names the field and the problem in one sentence. Absent fields take the task's
// defaults (config.h).
Request parse_request(std::string_view json_text);

// Runs a request to the end and writes {"loss", "accuracy", "entropy", "grad_norm_qk",
// "steps_to_accuracy"}, or {"error": …}; never throws. *ok tells which.
std::string train_json(std::string_view json_text, bool* ok = nullptr);

// The view's data: the run's configuration, history and current maps, and the compared
// run's under "compare" when there is one.
std::string view_json(const Run& run, const Run* compare);

}  // namespace train
