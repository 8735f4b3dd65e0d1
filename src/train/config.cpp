#include "config.h"

#include <cmath>
#include <tuple>

#include "tasks.h"

namespace train {
namespace {

auto tie(const Config& c) {
  return std::tie(c.task, c.layers, c.heads, c.d_model, c.d_k, c.seq, c.vocab, c.causal, c.scale, c.positions,
                  c.positions_in_qk, c.init_std, c.proj_std, c.lr, c.batch, c.seed);
}

std::string range(const char* field, long lo, long hi) {
  return std::string(field) + ": expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

float Config::projection_std() const { return proj_std > 0 ? proj_std : 1.0f / std::sqrt(float(d_model)); }

bool Config::operator==(const Config& o) const { return tie(*this) == tie(o); }

Config defaults(Task task) {
  Config c;
  c.task = task;
  task_spec(task).start(c);
  return c;
}

std::string validate(const Config& c) {
  if (c.layers < 1 || c.layers > Limits::max_layers) return range("layers", 1, Limits::max_layers);
  if (c.heads < 1 || c.heads > Limits::max_heads) return range("heads", 1, Limits::max_heads);
  if (c.d_model < 1 || c.d_model > Limits::max_d_model) return range("d_model", 1, Limits::max_d_model);
  if (c.d_k < 1 || c.d_k > Limits::max_d_k) return range("d_k", 1, Limits::max_d_k);
  const int shortest = task_spec(c.task).min_seq;
  if (c.seq < shortest || c.seq > Limits::max_seq) return range("seq", shortest, Limits::max_seq);
  if (c.vocab < 2 || c.vocab > Limits::max_vocab) return range("vocab", 2, Limits::max_vocab);
  if (c.vocab < min_vocab(c.task, c.seq))
    return "vocab: the " + std::string(task_name(c.task)) + " task needs at least " +
           std::to_string(min_vocab(c.task, c.seq)) + " distinct tokens at seq " + std::to_string(c.seq);
  if (c.batch < 1 || c.batch > Limits::max_batch) return range("batch", 1, Limits::max_batch);
  if (!(c.init_std > 0 && c.init_std <= Limits::max_std))
    return "init_std: expected a number above 0, at most " + std::to_string(int(Limits::max_std));
  if (!(c.proj_std >= 0 && c.proj_std <= Limits::max_std))
    return "proj_std: expected 0 (for 1/sqrt(d_model)) or a number above 0, at most " +
           std::to_string(int(Limits::max_std));
  if (!(c.lr > 0 && c.lr <= Limits::max_lr)) return "lr: expected a number above 0, at most 1";
  if (c.scale == attn::ScaleMode::custom) return "scale: expected inv_sqrt_dk, none or inv_dk";
  return "";
}

const char* task_name(Task task) { return task_spec(task).name; }

bool parse_task(const std::string& name, Task& out) {
  for (const TaskSpec& t : tasks())
    if (name == t.name) {
      out = t.task;
      return true;
    }
  return false;
}

std::string task_names(const std::string& or_word) {
  std::string text;
  for (const TaskSpec& t : tasks())
    text += (text.empty() ? "" : &t == &tasks().back() ? " " + or_word + " " : ", ") + std::string(t.name);
  return text;
}

}  // namespace train
