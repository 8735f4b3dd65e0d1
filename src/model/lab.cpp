#include "lab.h"

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "contract.h"
#include "i18n.h"

namespace lab {
namespace {

// Splits flat (batch, rows, cols) values into one Eigen matrix per sequence.
std::vector<attn::Matrix> per_batch(const std::vector<float>& flat, int batches, int rows, int cols) {
  std::vector<attn::Matrix> out;
  for (int b = 0; b < batches; ++b)
    out.push_back(Eigen::Map<const attn::Matrix>(flat.data() + std::size_t(b) * rows * cols, rows, cols));
  return out;
}

}  // namespace

Lab::Lab(State state) : state_(std::move(state)) {
  normalize(state_);
  recompute();
  experiment_.update(state_);
  if (state_.view == View::train) training_.update(state_);
  if (state_.view == View::model) model_.update(state_);
}

void Lab::set_state(State state, Change change) {
  if (change == Change::edit) normalize(state, state_);  // typed values survive a new shape or seed (typed.h)
  else normalize(state);
  if (state == state_) return;
  const bool recompute_needed = computed_part(state) != computed_part(state_);
  const bool play_pressed = state.play && !state_.play;
  state_ = std::move(state);
  changed_ = true;
  if (recompute_needed) recompute();
  experiment_.update(state_);
  // Built on first use: the other views never pay for a model.
  if (state_.view == View::train) training_.update(state_);
  if (play_pressed) training_.resume();  // a run that stopped itself trains on
  if (state_.view == View::model) model_.update(state_);
}

const lm::LanguageModel& Lab::open_model(const std::vector<lm::ModelFile>& files) {
  const lm::LanguageModel& m = model_.open(files);
  State next = state_;
  next.view = View::model;
  choose_model(next, LanguageModelChoice::opened, m.name);
  set_state(std::move(next));
  return m;
}

void Lab::practice_next() {
  // After the first question, the next is about the next query row that keeps two keys or more
  // (a row with one open key gives it weight 1, nothing to work out): a question about the
  // screen is then never the last one again (largest_weight, output_row).
  if (practice_.asked() > 0 && state_.nq > 1) {
    State next = state_;
    const auto open_keys = [&](int i) {
      int open = 0;
      for (int j = 0; j < head().weights.cols(); ++j) open += mask_reason(i, j).empty();
      return open;
    };
    for (int step = 1; step <= state_.nq; ++step) {
      next.query = (state_.query + step) % state_.nq;
      if (open_keys(next.query) >= 2) break;
    }
    set_state(std::move(next));
  }
  const practice::Live live{q(), k(), v(), head(), options_.scale, state_.query,
                            [this](int i) { return query_label(i); }, [this](int j) { return key_label(j); },
                            [this](int i, int j) { return mask_reason(i, j); }};
  practice_.next(live, state_.ask);
}

practice::Verdict Lab::practice_answer(const std::string& value) {
  const nlohmann::json answer = nlohmann::json::parse(value, nullptr, false);
  if (answer.is_discarded()) {
    practice::Verdict v;
    v.error = "answer: not a number, a list of numbers or a text";
    return v;
  }
  if (practice_.asked() == 0) practice_next();
  return practice_.answer(answer);
}

std::string Lab::practice_question_json() {
  if (practice_.asked() == 0) practice_next();
  return practice_.question_json();
}

std::string Lab::experiment_json() {
  if (state_.view == View::model) return model_.json();
  return state_.view == View::train ? training_.json() : experiment_.json();
}

bool Lab::take_changed() {
  const bool was = changed_;
  changed_ = false;
  return was;
}

float Lab::scale_of(attn::ScaleMode choice) const { return attn::scale_for(choice, state_.dk, state_.custom_scale); }

namespace {

// The kernel's options for a state's sequences: its causal choice, and its padding and
// painted cells as one boolean mask (batch, 1, nq, nk).
attn::Options options_of(const State& s, float scale) {
  attn::Options o;
  o.scale = scale;
  o.causal = s.causal;
  if (!s.pad.empty() || !s.blocked.empty()) {
    // Padding and painted cells are one boolean mask (batch, 1, nq, nk); causal composes.
    o.mask.kind = attn::Mask::Kind::boolean;
    o.mask.dims = {s.batches(), 1, s.nq, s.nk};
    o.mask.values.assign(std::size_t(s.batches()) * s.nq * s.nk, 1.0f);
    for (int b = 0; b < s.batches(); ++b)
      for (int i = 0; i < s.nq; ++i)
        for (int j = 0; j < s.nk; ++j) {
          const bool padded = !s.pad.empty() && j >= s.pad[b];
          if (padded) o.mask.values[(std::size_t(b) * s.nq + i) * s.nk + j] = 0.0f;
        }
    for (const auto& [i, j] : s.blocked)
      for (int b = 0; b < s.batches(); ++b) o.mask.values[(std::size_t(b) * s.nq + i) * s.nk + j] = 0.0f;
  }
  return o;
}

}  // namespace

attn::Options Lab::options_for(float scale) const { return options_of(state_, scale); }

const std::vector<attn::Matrix>& Lab::head_weights() const {
  const State& s = state_;
  if (heads_version_ == version()) return head_weights_;
  heads_version_ = version();
  head_weights_.clear();
  const int count = loaded_head_count(s);
  if (count < 2 || std::uint64_t(count) * s.nq * s.nk * (s.dk + s.dv) > kHeadWeightsWork) return head_weights_;
  // The shown sequence of each head: its Q, K and mask only (one sequence: its key padding).
  State one;
  one.nq = s.nq, one.nk = s.nk;
  one.causal = s.causal;
  attn::Inputs in;
  in.shape = {1, 1, 1, s.nq, s.nk, s.dk, s.dv};
  for (const LoadedHead& h : *s.loaded_heads) {
    one.pad = h.pad.empty() ? std::vector<int>{} : std::vector<int>{h.pad[std::size_t(s.batch)]};
    one.blocked = h.blocked;
    in.q = h.q.data() + std::size_t(s.batch) * s.nq * s.dk;
    in.k = h.k.data() + std::size_t(s.batch) * s.nk * s.dk;
    in.v = h.v.data() + std::size_t(s.batch) * s.nk * s.dv;
    head_weights_.push_back(attn::reference_forward(in, options_of(one, options_.scale)).at(0, 0).weights);
  }
  return head_weights_;
}

void Lab::recompute() {
  const State& s = state_;
  const int b = s.batches();
  if (s.projected()) {
    // Q = X W_Q, K = X W_K, V = X W_V for every sequence, with one set of W for the batch.
    flat_x_ = typed_or_seeded(s, Typed::x);
    flat_wq_ = typed_or_seeded(s, Typed::wq);
    flat_wk_ = typed_or_seeded(s, Typed::wk);
    flat_wv_ = typed_or_seeded(s, Typed::wv);
    x_ = per_batch(flat_x_, b, s.nq, s.dmodel);
    w_q_ = per_batch(flat_wq_, 1, s.dmodel, s.dk)[0];
    w_k_ = per_batch(flat_wk_, 1, s.dmodel, s.dk)[0];
    w_v_ = per_batch(flat_wv_, 1, s.dmodel, s.dv)[0];
    auto project = [&](const attn::Matrix& w) {
      std::vector<float> flat;
      flat.reserve(std::size_t(b) * s.nq * w.cols());
      for (const attn::Matrix& x : x_) {
        const attn::Matrix product = x * w;
        flat.insert(flat.end(), product.data(), product.data() + product.size());
      }
      return flat;
    };
    flat_q_ = project(w_q_);
    flat_k_ = project(w_k_);
    flat_v_ = project(w_v_);
  } else {
    flat_x_.clear(), flat_wq_.clear(), flat_wk_.clear(), flat_wv_.clear();
    x_.assign(std::size_t(b), attn::Matrix());
    w_q_ = w_k_ = w_v_ = attn::Matrix();
    flat_q_ = typed_or_seeded(s, Typed::q);
    if (s.kind == Attention::self) {
      flat_k_ = flat_v_ = flat_q_;  // Q = K = V = X, the lesson's worked example
    } else {
      flat_k_ = typed_or_seeded(s, Typed::k);
      flat_v_ = typed_or_seeded(s, Typed::v);
    }
  }
  q_ = per_batch(flat_q_, b, s.nq, s.dk);
  k_ = per_batch(flat_k_, b, s.nk, s.dk);
  v_ = per_batch(flat_v_, b, s.nk, s.dv);
  options_ = options_for(scale_of(s.scale));
  trace_ = attn::reference_forward(inputs(), options_);
  ++computations_;
  scaled_weights_.clear();  // stale now: freed here rather than at compare's next visit
}

std::string Lab::mask_reason(int i, int j) const {
  const State& s = state_;
  if (!attn::causal_allows(options_.causal, i, j, s.nq, s.nk))
    return s.causal == attn::Causal::top_left
               ? i18n::format(tr("causal: key %d comes after query %d"), j, i)
               : i18n::format(tr("causal (bottom-right): key %d is after position %d"), j, i + s.nk - s.nq);
  if (!s.pad.empty() && j >= s.pad[s.batch])
    return i18n::format(tr("padding: this sequence has only %d real tokens"), s.pad[s.batch]);
  for (const auto& cell : s.blocked)
    if (cell == std::pair<int, int>{i, j}) return tr("painted out in the custom mask");
  return "";
}

std::string Lab::query_label(int i) const {
  if (int(state_.query_tokens.size()) == state_.nq) return state_.query_tokens[i];
  const Preset* p = find_preset(state_.preset);
  if (p && int(p->query_tokens.size()) == state_.nq) return p->query_tokens[i];
  return "q" + std::to_string(i);
}

std::string Lab::key_label(int j) const {
  if (int(state_.key_tokens.size()) == state_.nk) return state_.key_tokens[j];
  const Preset* p = find_preset(state_.preset);
  if (p && int(p->key_tokens.size()) == state_.nk) return p->key_tokens[j];
  return "k" + std::to_string(j);
}

std::string Lab::trace_json() const {
  using nlohmann::json;
  const State& s = state_;
  // One sequence is a rank-2 request; a batch is rank 4 (batch, 1 head, n, d).
  const bool batched = s.batches() > 1;
  auto tensor = [&](const std::vector<attn::Matrix>& ms) {
    json all = json::array();
    for (const attn::Matrix& m : ms) {
      json rows = json::array();
      for (int r = 0; r < m.rows(); ++r) {
        json row = json::array();
        for (int c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
        rows.push_back(std::move(row));
      }
      all.push_back(batched ? json::array({std::move(rows)}) : std::move(rows));
    }
    return batched ? all : all[0];
  };
  json request{{"q", tensor(q_)}, {"k", tensor(k_)}, {"v", tensor(v_)},
               {"scale", options_.scale},
               {"outputs", {"output", "weights", "scores"}}};
  if (options_.causal != attn::Causal::none)
    request["causal"] = attn::io::causal_name(options_.causal);
  if (!options_.mask.empty()) {
    std::vector<attn::Matrix> allowed;
    for (int b = 0; b < s.batches(); ++b)
      allowed.push_back(Eigen::Map<const attn::Matrix>(
          options_.mask.values.data() + std::size_t(b) * s.nq * s.nk, s.nq, s.nk));
    json mask = tensor(allowed);
    // The contract's boolean mask: true = may attend.
    std::function<void(json&)> to_bool = [&](json& j) {
      if (j.is_array()) for (json& e : j) to_bool(e);
      else j = j.get<float>() != 0.0f;
    };
    to_bool(mask);
    request["mask"] = std::move(mask);
  }
  return attn::io::compute_json(request.dump());
}

attn::Inputs Lab::inputs() const {
  attn::Inputs in;
  in.shape.batch = state_.batches();
  in.shape.nq = state_.nq;
  in.shape.nk = state_.nk;
  in.shape.dk = state_.dk;
  in.shape.dv = state_.dv;
  in.q = flat_q_.data();
  in.k = flat_k_.data();
  in.v = flat_v_.data();
  return in;
}

const attn::Matrix& Lab::weights_with_scale(float scale) const {
  for (const ScaledWeights& w : scaled_weights_)
    if (w.version == version() && w.scale == scale) return w.weights;
  if (!scaled_weights_.empty() && scaled_weights_.front().version != version()) scaled_weights_.clear();
  const attn::Trace t = attn::reference_forward(inputs(), options_for(scale));
  scaled_weights_.push_back({version(), scale, t.at(state_.batch, 0).weights});
  return scaled_weights_.back().weights;
}

}  // namespace lab
