// [SECTION] view=train: a tiny attention-only model trained live. Controls on the left; on
// the right the curves of the run (and of the compared run, dashed), the attention maps of
// every layer and head on one fixed held-out example, and what to try.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "combo.h"
#include "common.h"
#include "explain.h"
#include "i18n.h"
#include "number_text.h"
#include "tasks.h"
#include "theme.h"
#include "input/item_layout.h"

namespace ui::views {
namespace {

constexpr const char* kCompareNote =
    N_("Compare the scale: on reverse, set d_k to 64 and the sequence to 32, tick \"a second run with\" no scale, "
       "and Play. The unscaled run starts with near one-hot attention (entropy about 0.25 against 2.2) and needs "
       "about six times the steps to reach 95% (at sequence 8, about twice). Then set init std to 0.02: both runs "
       "start uniform, and the unscaled one is now the faster.");

// The choosers' items as shown, in the order of train::Positions and attn::ScaleMode; the
// link keeps the names of kPositionNames (the tasks' labels are in train::tasks()).
constexpr const char* kPositionLabels[] = {N_("learned"), N_("sinusoidal")};
static_assert(std::size(kPositionLabels) == std::size(train::kPositionNames));
constexpr const char* kScaleLabels[] = {"1/√d_k", N_("none"), "1/d_k"};

// The compared settings the chooser offers, and the value each compares against: the other
// scale, a tiny or a unit initialisation, a learning rate ten times off.
std::string compared_setting(const char* key, const train::Config& c) {
  const std::string k = key;
  if (k == "scale") return c.scale == attn::ScaleMode::none ? "scale:sqrt" : "scale:none";
  if (k == "init") return c.init_std == 0.02f ? "init:1" : "init:0.02";
  // Six digits, not the float's shortest text: lr × 10 in float is not always the float
  // nearest the decimal a person reads ("0.003", not "0.0030000001").
  return "lr:" + text::significant(c.lr >= 0.01f ? c.lr / 10 : c.lr * 10, 6);
}

// A setting as the legends name it: "scale none", "init 0.02".
std::string setting_label(const std::string& key, const std::string& value) {
  if (key == "scale") return value == "sqrt" ? "1/√d_k" : value == "dk" ? "1/d_k" : tr("no scale");
  return key + " " + value;
}

struct Curves {
  std::vector<double> x;  // steps, 1-based; at most ~1000 points however long the run
  std::size_t stride = 1;
  explicit Curves(int steps) {
    stride = std::size_t(std::max(1, steps / 1000));
    for (int i = 0; i < steps; i += int(stride)) x.push_back(i + 1);
  }
  template <class F>
  std::vector<double> of(F value) const {
    std::vector<double> y;
    for (double s : x) y.push_back(value(std::size_t(s) - 1));
    return y;
  }
};

// The mean entropy of uniform attention rows: ln(seq), or with a causal mask the mean of
// ln(i + 1) over rows i (row i sees i + 1 keys).
double uniform_entropy(const train::Config& c) {
  if (!c.causal) return std::log(double(c.seq));
  double sum = 0;
  for (int i = 0; i < c.seq; ++i) sum += std::log(double(i + 1));
  return sum / c.seq;
}

// Tokens as letters (a … z, A … F), so a repeated token reads as one.
std::string token(int t) {
  if (t < 0) return "·";
  return std::string(1, char(t < 26 ? 'a' + t : 'A' + t - 26));
}

// A titled group of controls (ImGui 1.86 has no SeparatorText).
void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextColored(palette().muted_text, "%s", title);
  ImGui::Separator();
}

// The next field `width` wide, narrower when its label (longer in Spanish) would not fit
// beside it in the panel.
void field_width(const char* label, float width) {
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label, nullptr, true).x -
                     ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetNextItemWidth(std::max(std::min(width, room), width * 0.5f));
}

bool slider(const char* label, int* v, int lo, int hi, float width, ImGuiSliderFlags flags = 0) {
  field_width(label, width);
  return ImGui::SliderInt(label, v, lo, hi, "%d", flags);
}

// `items` in English (N_), shown in the language on screen.
bool combo(const char* label, int* current, const char* const* items, int count, float width) {
  std::vector<const char*> shown;
  for (int i = 0; i < count; ++i) shown.push_back(tr(items[i]));
  field_width(label, width);
  return ui::combo(label, current, shown.data(), count);
}

// About half the panel; no wider than a field needs where the panel is a page's width (a figure).
float field_w() { return std::min(ImGui::GetContentRegionAvail().x * 0.52f, 320 * ui_scale()); }

// ▶ Play, Step, Reset and the pace: what a reader uses while watching.
void play_controls(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  if (ImGui::Button(s.play ? tr("❚❚ Pause") : tr("▶ Play"))) next.play = !s.play;
  ImGui::SameLine();
  if (ImGui::Button(tr("Step"))) ui.requests.emplace_back(request::TrainStep{}), next.play = false;
  ImGui::SameLine();
  if (ImGui::Button(tr("Reset"))) ui.requests.emplace_back(request::TrainReset{});
  int spf = s.steps_per_frame;
  const float w = field_w();
  beside_if_room(w, tr("steps / frame"));  // beside the buttons in a lesson's wide column
  if (slider(tr("steps / frame"), &spf, 1, lab::TrainLimits::max_steps_per_frame, w, ImGuiSliderFlags_Logarithmic))
    next.steps_per_frame = spf;
}

// The task: a new one starts from its own defaults.
void task_combo(const lab::Lab& lab, lab::State& next, float w) {
  std::vector<const char*> task_labels;
  for (const train::TaskSpec& t : train::tasks()) task_labels.push_back(t.label);
  int task = int(lab.state().train.task);
  if (combo(tr("task"), &task, task_labels.data(), int(task_labels.size()), w))
    next.train = train::defaults(train::tasks()[std::size_t(task)].task);
}

// The task, the model, the training and the compared run.
void settings(const lab::Lab& lab, lab::State& next) {
  const lab::State& s = lab.state();
  const float w = field_w();
  section(tr("Task and model"));
  train::Config& c = next.train;
  const train::Config& now = s.train;
  task_combo(lab, next, w);
  int v = now.layers;
  if (slider(tr("layers"), &v, 1, train::Limits::max_layers, w)) c.layers = v;
  v = now.heads;
  if (slider(tr("heads"), &v, 1, train::Limits::max_heads, w)) c.heads = v;
  v = now.d_model;
  if (slider("d_model", &v, 1, train::Limits::max_d_model, w, ImGuiSliderFlags_Logarithmic)) c.d_model = v;
  v = now.d_k;
  if (slider(tr("d_k (per head)"), &v, 1, train::Limits::max_d_k, w, ImGuiSliderFlags_Logarithmic)) c.d_k = v;
  v = now.seq;
  if (slider(tr("sequence"), &v, train::task_spec(now.task).min_seq, train::Limits::max_seq, w)) {
    c.seq = v;
    c.vocab = std::max(c.vocab, train::min_vocab(now.task, v));  // the task's tokens must fit
  }
  v = now.vocab;
  if (slider(tr("vocabulary"), &v, std::max(2, train::min_vocab(now.task, now.seq)), train::Limits::max_vocab, w))
    c.vocab = v;
  bool causal = now.causal;
  if (ImGui::Checkbox(tr("causal mask"), &causal)) c.causal = causal;
  int scale = int(now.scale);
  if (combo(tr("scale"), &scale, kScaleLabels, 3, w)) c.scale = attn::ScaleMode(scale);
  int pos = int(now.positions);
  if (combo(tr("positions"), &pos, kPositionLabels, 2, w)) c.positions = train::Positions(pos);

  section(tr("Training"));
  float f = now.init_std;
  field_width(tr("init std"), w);
  if (ImGui::SliderFloat(tr("init std"), &f, 0.001f, float(train::Limits::max_std), "%.3g",
                         ImGuiSliderFlags_Logarithmic))
    c.init_std = std::max(f, 0.001f);
  f = now.proj_std;
  field_width(tr("proj std"), w);
  if (ImGui::SliderFloat(tr("proj std"), &f, 0, float(train::Limits::max_std), f > 0 ? "%.3g" : "1/√d_model",
                         ImGuiSliderFlags_Logarithmic))
    c.proj_std = std::max(f, 0.0f);
  f = now.lr;
  field_width(tr("learning rate"), w);
  if (ImGui::SliderFloat(tr("learning rate"), &f, 1e-4f, float(train::Limits::max_lr), "%.2g",
                         ImGuiSliderFlags_Logarithmic))
    c.lr = std::max(f, 1e-4f);
  v = now.batch;
  if (slider(tr("batch"), &v, 1, train::Limits::max_batch, w, ImGuiSliderFlags_Logarithmic)) c.batch = v;
  v = int(now.seed);
  field_width(tr("seed"), w);
  input::next_item(input::ItemKind::input, tr("seed"));
  if (ImGui::InputInt(tr("seed"), &v) && v >= 0) c.seed = std::uint32_t(v);

  section(tr("Compare"));
  bool compare = !s.vs.empty();
  const std::string key = s.vs.substr(0, s.vs.find(':'));
  if (ImGui::Checkbox(tr("a second run with"), &compare)) next.vs = compare ? compared_setting("scale", now) : "";
  if (compare) {
    static constexpr const char* kKeys[] = {"scale", "init", "lr"};
    ImGui::SetNextItemWidth(w);
    const std::string compared = setting_label(key, s.vs.substr(key.size() + 1));
    if (begin_combo("##compared", compared.c_str())) {
      for (const char* k : kKeys) {
        const std::string vs = compared_setting(k, now);
        if (ImGui::Selectable(setting_label(k, vs.substr(vs.find(':') + 1)).c_str(), key == k)) next.vs = vs;
      }
      end_combo();
    }
    ImGui::SameLine();
    ImGui::TextUnformatted(tr("only"));
  }
}

void controls(const lab::Lab& lab, lab::State& next, Memory& ui) {
  play_controls(lab, next, ui);
  settings(lab, next);
}

// Why playing stopped by itself, under the status line.
void stopped(const lab::Training& t) {
  if (t.stop() == lab::Training::Stop::none) return;
  ImGui::PushStyleColor(ImGuiCol_Text, palette().accent);
  const int steps = t.run() ? t.run()->steps() : 0;
  ImGui::TextWrapped("%s", t.stop() == lab::Training::Stop::learned
                               ? i18n::format(tr("Stopped at step %d: learned (95%% held-out accuracy). Play trains on."), steps).c_str()
                               : i18n::format(tr("Stopped at step %d: the step budget is spent. Reset to run again."), steps).c_str());
  ImGui::PopStyleColor();
}

// The status line: how far the run is, and the compared run beside it.
void status(const lab::Training& t, const std::string& this_run, const std::string& other_run) {
  auto line = [](const train::Run& r) {
    const train::History& h = r.history();
    if (h.loss.empty()) return std::string(tr("step 0: press Play, or Step for one step"));
    std::string out = i18n::format(tr("step %d · loss %s · held-out accuracy %.1f%%"), r.steps(),
                                   num(float(h.loss.back())).c_str(), 100 * h.accuracy.back());
    const int reached = h.steps_to_accuracy(0.95);
    if (reached > 0) out += " · " + i18n::format(tr("95%% at step %d"), reached);
    if (r.steps() >= train::Limits::max_steps) out += std::string(" · ") + tr("the end: Reset to run again");
    return out;
  };
  // Each run's line wraps (two lines on a phone rather than cut), its run's name beside it
  // where the line has room, else under it.
  const auto run_line = [](const std::string& text, const std::string& run) {
    ImGui::PushFont(fonts().heading);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopFont();
    if (run.empty()) return;
    beside_if_room(ImGui::CalcTextSize(run.c_str()).x, "");
    ImGui::TextColored(palette().muted_text, "%s", run.c_str());
  };
  // Before either run has stepped (they step together), one prompt for both.
  if (!t.compare() || (t.run()->history().loss.empty() && t.compare()->history().loss.empty())) {
    run_line(line(*t.run()), "");
    return;
  }
  run_line(line(*t.run()), "(" + this_run + ")");
  run_line(line(*t.compare()), i18n::format(tr("(%s, dashed)"), other_run.c_str()));
}

void curves(const lab::Training& t, Memory& ui, const std::string& this_run, const std::string& other_run) {
  const train::Run& run = *t.run();
  std::vector<const train::Run*> runs{&run};
  if (t.compare()) runs.push_back(t.compare());
  const bool compared = runs.size() > 1;
  // One quantity per plot: with two runs the legend names the runs.
  auto label = [&](const std::string& what, std::size_t r) { return compared ? (r ? other_run : this_run) : what; };
  auto style = [](std::size_t r) { return r ? PlotSeries::Style::dashed : PlotSeries::Style::line; };
  std::vector<PlotSeries> loss, accuracy, entropy, grad;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const train::History& h = runs[r]->history();
    const Curves c(runs[r]->steps());
    loss.push_back({label(tr("loss"), r), c.x, c.of([&](std::size_t i) { return h.loss[i]; }), style(r), 0});
    accuracy.push_back(
        {label(tr("accuracy"), r), c.x, c.of([&](std::size_t i) { return h.accuracy[i]; }), style(r), 2});
    grad.push_back({label("‖∂L/∂(W_Q, W_K)‖", r), c.x, c.of([&](std::size_t i) { return h.grad_norm_qk[i]; }),
                    style(r), 3});
    const int heads = runs[r]->config().heads;
    const int count = runs[r]->config().layers * heads;
    for (int k = 0; k < count; ++k) {
      const std::string head = "L" + std::to_string(k / heads + 1) + " H" + std::to_string(k % heads + 1);
      entropy.push_back({compared ? head + ", " + label("", r) : head, c.x, c.of([&](std::size_t i) { return h.entropy[i][std::size_t(k)]; }),
                         style(r), k});
    }
  }
  const double steps = std::max(1, run.steps());
  entropy.push_back({tr("uniform"), {0, steps}, {uniform_entropy(run.config()), uniform_entropy(run.config())},
                     PlotSeries::Style::dashed, 7});

  // Four in a row on a laptop's lesson column: the curves and the maps with the controls on one
  // screen. Where four do not fit at 170 pixels each (a documentation theme's column, a phone),
  // one at a time behind buttons naming them, at the column's width: more rows would not fit.
  const Grid four(4, 150);
  const bool one_by_one = four.per_row() < 4 || four.width() < 170 * ui_scale();
  const int one = one_at_a_time(ui, "curves", one_by_one, {tr("Loss"), tr("Accuracy"), tr("Entropy"), tr("Gradient")});
  Grid grid(one_by_one ? 1 : 4, 150);
  // The title and up to three lines of note: Spanish notes wrap to three in a quarter width.
  // One word a title, so that it takes one line in a quarter of the lesson's column: the plots
  // line up; a quarter under 200 pixels keeps its title only. One card: the least height that
  // keeps it readable (plot_card's floor), and no title (the button above names it).
  const bool narrow = !one_by_one && grid.width() < 200 * ui_scale();
  const float h = one_by_one ? 0 : narrow ? card_height(100, 1) : card_height(160, 4);
  const auto title = [one_by_one](const char* text) { return one_by_one ? std::string() : std::string(tr(text)); };
  const auto note = [narrow](const std::string& text) { return narrow ? std::string() : text; };
  PlotSpec spec;
  spec.x_label = tr("step");
  spec.integer_x = true;
  spec.x_min = 0;
  spec.log_y = true;
  spec.y_label = tr("loss");
  if (shown(one, 0)) plot_card(grid, "loss", h, title("Loss"), note(tr("cross-entropy on each step's fresh batch")), spec, loss);
  spec.log_y = false;
  spec.y_label = tr("accuracy");
  spec.y_min = 0;
  spec.y_max = 1;
  if (shown(one, 1))
    plot_card(grid, "accuracy", h, title("Accuracy"),
              note(i18n::format(tr("%d sequences the model never trains on"), train::Run::kHeldOut)), spec, accuracy);
  spec.y_label = "nats";
  spec.y_max = NAN;
  if (shown(one, 2))
    plot_card(grid, "entropy", h, title("Entropy"), note(tr("mean per head; 0 is one-hot, dashed is uniform")), spec, entropy);
  spec.log_y = true;
  spec.y_min = NAN;
  spec.y_label = tr("gradient norm");
  if (shown(one, 3))
    plot_card(grid, "grad", h, title("Gradient"), note(tr("the norm reaching W_Q and W_K at each step")), spec, grad);
}

void maps(const lab::Lab& lab, Memory& ui, const std::string& this_run, const std::string& other_run) {
  const lab::Training& t = lab.training();
  std::vector<const train::Run*> runs{t.run()};
  if (t.compare()) runs.push_back(t.compare());
  const train::Maps& example = t.run()->maps();
  const int seq = int(example.tokens.size());
  const std::vector<int> tokens = example.tokens;
  const Labels labels = [tokens](int i) { return token(tokens[std::size_t(i)]); };
  int count = 0;
  for (const train::Run* r : runs) count += int(r->maps().weights.size());
  Grid grid(count, 150);  // the two runs' maps side by side on a phone
  const float scale = ui_scale();
  const bool narrow = grid.width() < 200 * scale;
  // Smaller cells in a phone's column (smallest with the runs side by side), so that the
  // controls, the plots and the maps are on one screen.
  const float largest = (narrow ? 10 : grid.width() < 420 * scale ? 16 : 22) * scale;
  const float cell = std::min((grid.width() - 60 * scale) / float(seq), largest);
  const float height = std::max(cell * float(seq) + ImGui::GetTextLineHeight() * 3.1f, 130 * scale) / scale;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const train::Run& run = *runs[r];
    const int heads = run.config().heads;
    for (std::size_t k = 0; k < run.maps().weights.size(); ++k) {
      const std::string id = "map " + std::to_string(r) + "." + std::to_string(k);
      // With a second run, each card names its run (a phone's narrow card: the setting alone).
      grid.begin(id.c_str(), card_height(height, runs.size() > 1 ? 2 : 1));
      MapSpec m;
      // A one-layer model's heads on a phone: "head 1", on one line.
      m.title = narrow && run.config().layers == 1 ? i18n::format(tr("head %d"), int(k) + 1)
                                                    : i18n::format(tr("Layer %d · head %d"), int(k) / heads + 1, int(k) % heads + 1);
      if (r) m.caption = narrow ? other_run : i18n::format(tr("%s (the second run)"), other_run.c_str());
      else if (runs.size() > 1) m.caption = this_run;
      m.values = &run.maps().weights[k];
      m.rows = m.cols = labels;
      m.version = t.version();
      const HeatmapHit hit = map(ui, lab, id.c_str(), m);
      if (hit.row >= 0) {
        begin_readout();
        ImGui::Text(tr("query %d (%s) → key %d (%s): weight %s"), hit.row, token(tokens[std::size_t(hit.row)]).c_str(),
                    hit.col, token(tokens[std::size_t(hit.col)]).c_str(),
                    num(run.maps().weights[k](hit.row, hit.col)).c_str());
        end_readout();
      }
      grid.end();
    }
  }
}

// The fixed example in one aligned block: input, target, predicted (green when right).
void example_tokens(const train::Maps& m) {
  ImGui::BeginGroup();
  ImGui::TextColored(palette().muted_text, "%s", tr("One held-out example: the maps' axes"));
  ImGui::PushFont(fonts().mono);
  const std::vector<std::string> names = aligned({tr("input"), tr("target"), tr("predicted")}, 1);
  auto row = [&](const std::string& name, const std::vector<int>& tokens, bool judged) {
    ImGui::TextColored(palette().muted_text, "%s", name.c_str());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      ImGui::SameLine();
      const bool scored = m.targets[i] >= 0;
      const ImVec4 colour = !judged || !scored ? (scored ? ImGui::GetStyle().Colors[ImGuiCol_Text] : palette().muted_text)
                            : tokens[i] == m.targets[i] ? ImGui::ColorConvertU32ToFloat4(plot_colour(2))
                                                        : ImGui::ColorConvertU32ToFloat4(plot_colour(4));
      ImGui::TextColored(colour, "%s", token(tokens[i]).c_str());
    }
  };
  row(names[0], m.tokens, false);
  row(names[1], m.targets, false);
  row(names[2], m.predicted, true);
  ImGui::PopFont();
  ImGui::EndGroup();
}

// What to try, beside the example: the task's pattern and the compare experiment.
void notes(train::Task task) {
  // Beside the example where a readable column is left (else under it: a phone, a tablet).
  const float gap = 24 * ui_scale();
  ImGui::SameLine(0, gap);
  if (ImGui::GetContentRegionAvail().x < 300 * ui_scale()) {
    ImGui::NewLine();
    ImGui::Spacing();
  }
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(tr("What to try"));
  notice(tr(train::task_spec(task).note));
  notice(tr(kCompareNote));
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

}  // namespace

// Whether the model cannot train, saying why (then its results are not drawn).
bool cannot_train(const lab::Training& t) {
  if (t.run()) return false;
  ImGui::PushStyleColor(ImGuiCol_Text, palette().accent);
  // train::validate's reasons stay in English (the training request's errors); tr() finds
  // the model's own (N_ in training.cpp).
  ImGui::TextWrapped(tr("This model cannot train: %s."), tr(t.error().c_str()));
  ImGui::PopStyleColor();
  return true;
}

void train(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::Training& t = lab.training();
  const lab::State& s = lab.state();
  // Playing stopped by itself (learned, or the budget spent): the button shows Play again.
  if (s.play && t.stop() != lab::Training::Stop::none) next.play = false;
  const std::string key = s.vs.substr(0, s.vs.find(':'));
  const std::string this_run = setting_label(key, lab::train_setting(s.train, key));
  const std::string other_run = key.empty() ? "" : setting_label(key, s.vs.substr(key.size() + 1));
  // The results: the run's status and curves, the example and the maps.
  const auto run_status = [&] {
    if (cannot_train(t)) return false;
    status(t, this_run, other_run);
    stopped(t);
    if (!t.compare_error().empty()) ImGui::TextWrapped(tr("No second run: %s."), tr(t.compare_error().c_str()));
    return true;
  };
  const Section curves_part{"curves", [&] {
                              if (run_status()) curves(t, ui, this_run, other_run);
                            }};
  const Section example_part{"example", [&] {
                               if (!t.run()) return;
                               example_tokens(t.run()->maps());
                               notes(s.train.task);
                             }};
  const Section maps_part{"maps", [&] {
                            if (t.run()) maps(lab, ui, this_run, other_run);
                          }};
  const auto intro_note = [] {
    notice(tr("An attention-only transformer trains here on a toy task only attention can solve. "
              "Notice that the loss drops when the maps sharpen into the task's pattern, and that "
              "a run whose softmax starts saturated (entropy near 0) learns more slowly."));
  };
  const auto intro_title = [] { heading(tr("Training lab: a tiny attention model learns in front of you")); };
  const Section intro{"intro", [&] {
                        intro_title();
                        intro_note();
                        ImGui::Spacing();
                      }};
  const Section controls_part{"controls", [&] { controls(lab, next, ui); }};
  // A figure's lighter controls: what a reader uses while watching, and the task.
  const Section play_part{"play", [&] {
                            play_controls(lab, next, ui);
                            task_combo(lab, next, field_w());
                          }, true};
  const float scale = ui_scale();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // A figure (which sizes itself to its content, so has no height to fill): its parts in order.
  if (!ui.section.empty() || s.is_figure()) {
    sections(lab, ui, {intro, controls_part, play_part, curves_part, example_part, maps_part});
    return;
  }
  // A phone or an upright tablet: one column where Play, the status, the maps and the first
  // plot are on screen together; the intro's note after them, and the settings folded at the
  // end (a side panel would leave each too narrow for its labels).
  if (avail.x < 900 * scale) {
    intro_title();
    play_controls(lab, next, ui);
    if (run_status()) {
      maps(lab, ui, this_run, other_run);
      curves(t, ui, this_run, other_run);
    }
    ImGui::Spacing();
    intro_note();
    ImGui::Spacing();
    example_part.draw();
    ImGui::Spacing();
    if (ImGui::CollapsingHeader(tr("Settings: task, model, training, compare"))) settings(lab, next);
    return;
  }
  sections(lab, ui, {intro});
  const float left = std::min(300 * scale, avail.x * 0.4f), height = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("train controls", ImVec2(left, height), true, ImGuiWindowFlags_AlwaysUseWindowPadding);
  controls(lab, next, ui);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("train results", ImVec2(0, height), false);
  sections(lab, ui, {curves_part, example_part, maps_part});
  ImGui::EndChild();
}

}  // namespace ui::views
