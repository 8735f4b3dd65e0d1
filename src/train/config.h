// The training lab's configuration: one tiny attention-only transformer and the task it
// learns. Shared by the training request (train_json.h), the view's link keys (state.h) and
// the trainer; validate() is the one place that states the limits.
#pragma once

#include <cstdint>
#include <string>

#include "attention.h"

namespace train {

// The toy tasks (tasks.h's table says what each asks of attention).
enum class Task { reverse, induction, sort, max };

// Positions: learned vectors, or the fixed sinusoids of "Attention Is All You Need".
enum class Positions { learned, sinusoidal };
inline constexpr const char* kPositionNames[] = {"learned", "sinusoidal"};

struct Limits {
  static constexpr int max_layers = 2;
  static constexpr int max_heads = 4;
  static constexpr int max_d_model = 128;
  static constexpr int max_d_k = 128;
  static constexpr int max_seq = 32;
  static constexpr int max_vocab = 32;
  static constexpr int max_batch = 128;
  static constexpr int max_steps = 100000;
  static constexpr long long max_request_tokens = 1 << 24;  // steps · batch · seq of one request
  static constexpr double max_std = 10;
  static constexpr double max_lr = 1;
};

struct Config {
  Task task = Task::reverse;
  int layers = 1;
  int heads = 1;
  int d_model = 32;
  int d_k = 32;  // per head; d_v = d_k, and W_O maps heads · d_k back to d_model
  int seq = 8;
  int vocab = 16;
  bool causal = false;
  attn::ScaleMode scale = attn::ScaleMode::inv_sqrt_dk;  // custom is not offered here
  Positions positions = Positions::learned;
  // Learned positions added to the queries' and keys' input only, not to the residual stream
  // (src/lm's language model: its values and its output carry no position, so a head that
  // copies a character copies only the character). The lab does not offer it.
  bool positions_in_qk = false;
  float init_std = 1.0f;  // token (and learned position) embeddings
  float proj_std = 0;     // W_Q, W_K, W_V, W_O and the unembedding; 0: 1/√d_model
  float lr = 0.003f;      // Adam's step size
  int batch = 16;         // fresh sequences per step
  std::uint32_t seed = 1;

  // The projections' standard deviation in use (proj_std, or 1/√d_model when it is 0).
  float projection_std() const;
  bool operator==(const Config& o) const;
  bool operator!=(const Config& o) const { return !(*this == o); }
};

// Each task's own starting point: the settings with which it is learned (held-out accuracy
// ≥ 95%) within a few hundred steps.
Config defaults(Task task);

// "" when the configuration is usable, otherwise one sentence naming the field (by its name
// in the training request) and the problem.
std::string validate(const Config& c);

const char* task_name(Task task);
bool parse_task(const std::string& name, Task& out);
// The tasks' names as a list for a sentence: "reverse, induction, sort or max", with
// `or_word` in the reader's language.
std::string task_names(const std::string& or_word);

}  // namespace train
