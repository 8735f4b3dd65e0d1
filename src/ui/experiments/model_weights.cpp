// [SECTION] view=model's weights: the lab's model, its one-layer twin or a model opened from its
// files (model=, docs/your-model.md), and the lab's
// model as it was along its training (checkpoint=): a slider over the steps whose weights the
// run kept, with what its report measured at each. Everything else in the view follows the
// weights chosen here, on the reader's own text. The checkpoints are fetched when the slider
// first opens (ModelFiles), never before.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "i18n.h"
#include "input/item_layout.h"
#include "model_parts.h"
#include "number_text.h"

namespace ui::views {
namespace {

// Which model: the heads of one are not another's, so the switch also clears what named them
// (lab::choose_model). The models opened from their files are listed beside the
// lab's, and "Open model…" opens more where the page offers a chooser.
void model_choice(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  const auto choice = [&](const std::string& label, lab::LanguageModelChoice model, const std::string& name) {
    input::next_item(input::ItemKind::radio);
    const bool on = s.model == model && s.model_name == name;
    if (ImGui::RadioButton(label.c_str(), on) && !on) lab::choose_model(next, model, name);
  };
  choice(tr("The lab's model"), lab::LanguageModelChoice::lab, "");
  beside_if_room(ImGui::CalcTextSize(tr("Its one-layer twin")).x + ImGui::GetFrameHeight(), "");
  choice(tr("Its one-layer twin"), lab::LanguageModelChoice::one_layer, "");
  std::vector<std::string> opened = lab.model().opened();
  if (s.model == lab::LanguageModelChoice::opened && std::find(opened.begin(), opened.end(), s.model_name) == opened.end())
    opened.push_back(s.model_name);  // named by the link, its files not given
  for (const std::string& name : opened) {
    beside_if_room(ImGui::CalcTextSize(name.c_str()).x + ImGui::GetFrameHeight(), "");
    choice(name, lab::LanguageModelChoice::opened, name);
  }
  if (ui.open_data_offered) {
    beside_if_room(ImGui::CalcTextSize(tr("Open model…")).x + 2 * ImGui::GetStyle().FramePadding.x, "");
    if (ImGui::Button(tr("Open model…"))) ui.requests.emplace_back(request::OpenModel{});
  }
}

// What the opened model is: "gpt2 · safetensors · 2 layers of 4 heads · d_model 32 · 50257
// tokens (GPT-2 BPE) · 1.7 M parameters".
void model_facts(const lm::LanguageModel& m) {
  const std::string tokens = m.vocab.bpe() ? i18n::format(tr("%d tokens (GPT-2's BPE)"), m.config.vocab)
                                           : i18n::format(tr("%d characters"), m.config.vocab);
  const std::string parts = m.config.d_mlp ? tr("layer norm, MLPs") : tr("attention only");
  text_wrapped(i18n::format(tr("%s · %s · %d layers of %d heads · d_model %d · %s · %s · %s parameters"), m.family.c_str(),
                            m.format.c_str(), m.config.layers, m.config.heads, m.config.d_model, parts.c_str(),
                            tokens.c_str(), text::fixed(double(m.parameter_count()) / 1e6, 2).append(" M").c_str()));
}

// The best score of a head at a checkpoint, and the head: "0.44 (head 1.0)".
template <class Score>
std::string best(const lab::Checkpoint& c, int heads, Score score) {
  int at = 0;
  for (int i = 1; i < int(c.heads.size()); ++i)
    if (score(c.heads[std::size_t(i)]) > score(c.heads[std::size_t(at)])) at = i;
  return i18n::format(tr("%s (head %s)"), text::fixed(score(c.heads[std::size_t(at)]), 2).c_str(),
                      head_name(at / heads, at % heads).c_str());
}

}  // namespace

void model_weights(const lab::Lab& lab, lab::State& next, Memory& ui, bool with_choice) {
  const lab::State& s = lab.state();
  const lab::ModelView& mv = lab.model();
  if (with_choice) model_choice(lab, next, ui);
  const lab::Weights* base = mv.base();
  if (!base || !base->model) return;
  if (s.model == lab::LanguageModelChoice::opened) {
    model_facts(*base->model);
    return;
  }
  if (base->checkpoints.empty()) {
    if (s.model == lab::LanguageModelChoice::one_layer)
      notice(tr("The same recipe with one layer: its heads look back, but none can use what another head found, "
                "so on a text typed twice it predicts the second copy about as badly as the first (the losses "
                "below)."));
    if (!mv.checkpoint_error().empty()) note(mv.checkpoint_error());
    return;
  }
  bool watch = s.checkpoint != 0;
  if (ImGui::Checkbox(tr("Watch it learn"), &watch)) next.checkpoint = watch ? base->checkpoints.back().step : 0;
  if (!mv.checkpoint_error().empty()) note(mv.checkpoint_error());
  const lab::Checkpoint* at = mv.checkpoint();
  if (!watch || !at) return;
  const std::vector<lab::Checkpoint>& steps = base->checkpoints;
  int index = int(std::find_if(steps.begin(), steps.end(), [&](const lab::Checkpoint& c) { return c.step == at->step; }) -
                  steps.begin());
  // The step is written beside the checkbox, not on the slider, where the grab would cover it
  // (nor under it: a phone's figure one screen tall has no line to spare).
  const std::string label = i18n::format(tr("step %d of %d"), at->step, steps.back().step);
  beside_if_room(ImGui::CalcTextSize(label.c_str()).x, "");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label.c_str());
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 24 * ImGui::GetFontSize()));
  input::next_item(input::ItemKind::slider, tr("Training step"));
  if (ImGui::SliderInt("##checkpoint", &index, 0, int(steps.size()) - 1, "", ImGuiSliderFlags_AlwaysClamp))
    next.checkpoint = steps[std::size_t(index)].step;
  if (mv.checkpoint_loading()) {
    notice(tr("Loading the weights of that step…"));
    return;
  }
  const int heads = base->model->config.heads;
  notice(i18n::format(tr("At step %d the run measured: held-out loss %s nats a character; second copy's loss over "
                         "the first's %s on the tuning sentences typed twice, %s on random strings; best induction "
                         "score there %s, best previous-token score %s. Below: these weights on your text."),
                      at->step, text::fixed(at->held_out_loss, 2).c_str(), text::fixed(at->copy_sentences, 2).c_str(),
                      text::fixed(at->copy_random, 2).c_str(),
                      best(*at, heads, [](const lab::HeadReport& h) { return h.induction_random; }).c_str(),
                      best(*at, heads, [](const lab::HeadReport& h) { return h.previous_token; }).c_str())
             .c_str());
}

}  // namespace ui::views
