// [SECTION] view=model's weights: the lab's model or its one-layer twin (model=), and the lab's
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

// Which model: the heads of one are not the other's, so the switch also clears the heads
// switched off and the one opened.
void model_choice(const lab::State& s, lab::State& next) {
  const auto choice = [&](const char* label, lab::LanguageModelChoice model) {
    input::next_item(input::ItemKind::radio);
    if (ImGui::RadioButton(label, s.model == model) && s.model != model) {
      next.model = model;
      next.checkpoint = 0;
      next.ablate.clear();
      next.open_head.reset();
    }
  };
  choice(tr("The lab's model"), lab::LanguageModelChoice::lab);
  beside_if_room(ImGui::CalcTextSize(tr("Its one-layer twin")).x + ImGui::GetFrameHeight(), "");
  choice(tr("Its one-layer twin"), lab::LanguageModelChoice::one_layer);
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

void model_weights(const lab::Lab& lab, lab::State& next, bool with_choice) {
  const lab::State& s = lab.state();
  const lab::ModelView& mv = lab.model();
  if (with_choice) model_choice(s, next);
  const lab::Weights* base = mv.base();
  if (!base || !base->model) return;
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
