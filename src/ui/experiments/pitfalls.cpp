// [SECTION] view=pitfalls: each mistake of the lesson beside the right result.
#include <imgui.h>

#include <cmath>

#include "common.h"
#include "explain.h"
#include "i18n.h"
#include "pitfalls.h"
#include "plot.h"
#include "theme.h"
#include "input/item_layout.h"

namespace ui::views {
namespace {

struct Mistake {
  const char* name;   // the state's pitfall value and the experiment's case name
  const char* label;  // the switch
  const char* lesson;
};
constexpr Mistake kMistakes[] = {
    {"no_scaling", N_("No scaling"), N_("Raw scores are √d_k times wider: the rows harden towards one key.")},
    {"divide_by_dk", N_("Dividing by d_k"),
     N_("Scores shrink by another √d_k: the rows flatten and every key looks alike.")},
    {"fill_minus_one", N_("Mask fill −1"), N_("A blocked key keeps weight e^(−1 − m) / Σ: the future leaks in.")},
    {"fill_zero", N_("Mask fill 0"), N_("A score of 0 is an ordinary score: blocked keys get a full share.")},
    {"no_causal_mask", N_("No causal mask"),
     N_("Every query reads the keys after it: in training the model sees the answer.")},
    {"fully_masked_row", N_("Fully masked row"),
     N_("Padding and the causal mask together leave query 0 no key: e^(−∞) / 0 is NaN under the naive softmax "
        "(hatched); the stable kernel returns zeros.")},
};

}  // namespace

void pitfalls(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::PitfallsData& d = *lab.experiment().get<experiments::PitfallsData>();
  const Mistake* shown = &kMistakes[0];
  for (const Mistake& m : kMistakes)
    if (lab::name_of(lab.state().pitfall) == std::string_view(m.name)) shown = &m;
  const experiments::PitfallCase* c = nullptr;
  for (const experiments::PitfallCase& candidate : d.cases)
    if (candidate.name == shown->name) c = &candidate;
  if (!c) return;
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Pitfalls: the wrong result beside the right one"));
         notice(tr("Right: causal self-attention, scale 1/√d_k, −∞ for blocked keys, the stable softmax. Each switch "
                   "changes one of these; the difference map shows exactly which weights move."));
       }},
      {"controls", [&] {
         for (const Mistake& m : kMistakes) {
           if (&m != kMistakes &&
               ImGui::GetItemRectMax().x + ImGui::CalcTextSize(tr(m.label)).x + 60 * ui_scale() <
                   ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
             ImGui::SameLine();
           input::next_item(input::ItemKind::radio);
           if (ImGui::RadioButton(tr(m.label), &m == shown)) lab::parse_name(m.name, next.pitfall);
         }
         float future = 0;
         for (float f : c->future_weight) future += std::isnan(f) ? 0 : f;
         ImGui::TextWrapped(tr("%s  Weight on future keys, summed over queries: %s; rows with NaN: %d."),
                            tr(shown->lesson), num(future).c_str(), c->nan_rows);
       }},
      {"maps", [&] {
         const float scale = ui_scale();
         Grid grid(3, 260);
         const float h = std::max(grid.width() * 0.9f, 230 * scale) / scale;
         const struct {
           const char* id;
           const char* title;
           const char* caption;
           const attn::Matrix* values;
         } cards[] = {
             {"right", N_("Right"), N_("weights with every safeguard"), &c->weights_right},
             {"wrong", N_("Wrong"), N_("weights with the mistake"), &c->weights_wrong},
             {"difference", N_("Wrong − right"), N_("red: more weight, blue: less"), &c->weights_difference},
         };
         for (const auto& card : cards) {
           grid.begin(card.id, card_height(h, 2));
           MapSpec spec;
           spec.title = tr(card.title);
           spec.caption = tr(card.caption);
           spec.values = card.values;
           spec.diverging = card.values == &c->weights_difference;
           spec.rows = indexed("q");
           spec.cols = indexed("k");
           map(ui, lab, card.id, spec);
           grid.end();
         }
       }},
      {"future", [&] {
         // What each query sees of the future under the mistake (0 while the causal mask holds).
         std::vector<double> queries, seen;
         for (std::size_t i = 0; i < c->future_weight.size(); ++i)
           queries.push_back(double(i)), seen.push_back(c->future_weight[i]);
         Grid bottom(1, 300);
         PlotSpec spec;
         spec.x_label = tr("query");
         spec.integer_x = true;
         spec.y_label = "Σ_{j > i} a_ij";
         spec.y_max = 1;
         plot_card(bottom, "future", card_height(200, 1), tr("Weight each query puts on keys after it (wrong result)"),
                   "", spec, {{tr("weight on the future"), queries, seen, PlotSeries::Style::bars, 4}});
       }},
  });
}

}  // namespace ui::views
