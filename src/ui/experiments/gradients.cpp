// [SECTION] view=gradients: the backward pass stage by stage, and what saturation does to it.
#include <imgui.h>

#include <algorithm>
#include <iterator>
#include <string_view>

#include "common.h"
#include "explain.h"
#include "gradients.h"
#include "i18n.h"
#include "plot.h"
#include "theme.h"

namespace ui::views {
namespace {

// The maps, in the order the backward pass computes them. Titles that are only a formula are
// notation in every language (tr() returns them as they are).
struct Stage {
  const char* id;
  const char* title;
  const char* caption;
  const attn::Matrix experiments::GradientsData::*values;
  const char* cols;
  // max|x| at multiplier 1: the colour scale kept (nullptr: the weights, 0 … 1)
  float experiments::GradientsData::Largest::*at_one;
};
using Data = experiments::GradientsData;
using Largest = Data::Largest;
constexpr Stage kStages[] = {
    {"A", N_("A: the weights"), N_("forward pass, for reference"), &Data::weights, "k", nullptr},
    {"dO", "dO = C", N_("the loss's gradient at the output"), &Data::d_output, "d", &Largest::d_output},
    {"dA", "dA = dO Vᵀ", N_("how the loss moves with each weight"), &Data::d_weights, "k", &Largest::d_weights},
    {"dS", "dS = A ⊙ (dA − Σ dA ⊙ A)", N_("through the softmax Jacobian"), &Data::d_scores, "k", &Largest::d_scores},
    {"dQ", N_("dQ = scale · dS K"), N_("rows: queries, columns: d_k"), &Data::d_q, "d", &Largest::d_q},
    {"dK", N_("dK = scale · dSᵀ Q"), N_("rows: keys, columns: d_k"), &Data::d_k, "d", &Largest::d_k},
    {"dV", "dV = Aᵀ dO", N_("rows: keys, columns: d_v"), &Data::d_v, "d", &Largest::d_v},
    {"J", N_("Jacobian ∂a_i/∂s_j"), N_("of the selected row: diag(a) − a aᵀ"), &Data::jacobian, "s", &Largest::jacobian},
};
// `maps`: all of them; `backward`: the weights beside the gradients that saturation fades (dS,
// dQ, dK) and those it does not (dA, dV), for a figure that fits a screen.
constexpr const char* kAllMaps[] = {"A", "dO", "dA", "dS", "dQ", "dK", "dV", "J"};
constexpr const char* kBackwardMaps[] = {"A", "dA", "dS", "dQ", "dK", "dV"};

// The named maps in a grid of cards at least `min_width` wide, each about as tall as it is wide;
// a phone's narrow cards lower, with their title only (and a rescaled map's note), so that the
// figure with its controls stays one screen tall.
template <std::size_t N>
void maps(const lab::Lab& lab, lab::State& next, Memory& ui, const Data& d, const char* const (&ids)[N], float min_width) {
  const float scale = ui_scale();
  Grid grid(static_cast<int>(N), min_width);
  const bool narrow = grid.width() < 200 * scale;
  const float h = narrow ? grid.width() * 0.72f / scale : std::max(grid.width() * 1.05f, 150 * scale) / scale;
  for (const char* id : ids) {
    const Stage& st = *std::find_if(std::begin(kStages), std::end(kStages), [&](const Stage& s) { return std::string_view(s.id) == id; });
    const attn::Matrix& values = d.*st.values;
    grid.begin(st.id, card_height(h, narrow ? 1 : 2));
    MapSpec spec;
    spec.title = tr(st.title);
    if (!narrow) spec.caption = tr(st.caption);
    spec.values = &values;
    spec.diverging = st.at_one != nullptr;
    if (spec.diverging) {
      // Every multiplier on multiplier 1's colour scale, so a fading gradient fades on screen;
      // a map whose values outgrow it takes their range, and its caption says so.
      const float at_one = d.at_one.*st.at_one, largest = values.cwiseAbs().maxCoeff();
      spec.bound = std::max(at_one, largest);
      if (largest > at_one) spec.caption += tr(" (colours rescaled)");
    }
    const bool key_rows = st.values == &Data::d_k || st.values == &Data::d_v;
    const bool jacobian = st.values == &Data::jacobian;
    spec.rows = indexed(key_rows ? "k" : jacobian ? "a" : "q");
    spec.cols = indexed(st.cols);
    spec.highlight_row = key_rows || jacobian ? -1 : d.selected_query;
    const HeatmapHit hit = map(ui, lab, st.id, spec);
    if (hit.clicked && !key_rows && !jacobian) next.row = hit.row;
    if (hit.row >= 0) {
      begin_readout();
      ImGui::Text("%s[%d][%d] = %s", st.id, hit.row, hit.col, num(values(hit.row, hit.col)).c_str());
      end_readout();
    }
    grid.end();
  }
}

}  // namespace

void gradients(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::GradientsData& d = *lab.experiment().get<experiments::GradientsData>();
  const float scale = ui_scale();
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Gradients through the softmax"));
         notice(tr("The loss is Σ O ⊙ C for a fixed random C, so dO = C and everything below it is the backward pass. "
                   "As the scale grows the rows saturate: the softmax Jacobian shrinks towards zero and most keys stop "
                   "receiving any gradient."));
       }},
      {"controls", [&] {
         float mult = d.scale_multiplier;
         ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.5f, 300 * scale));
         if (ImGui::SliderFloat(tr("scale multiplier"), &mult, d.sweep_multiplier.front(), d.sweep_multiplier.back(),
                                "%.3g", ImGuiSliderFlags_Logarithmic))
           next.mult = mult;
         int row = d.selected_query;
         const float row_w = std::min(ImGui::GetContentRegionAvail().x * 0.5f, 160 * scale);
         beside_if_room(row_w, tr("Jacobian row"));
         ImGui::SetNextItemWidth(row_w);
         if (ImGui::SliderInt(tr("Jacobian row"), &row, 0, d.n - 1)) next.row = row;
         const std::string problem =
             i18n::format(tr("scale = multiplier / √d_k = %s; n = %d, d_k = %d, d_v = %d, seed %u"),
                          num(d.scale).c_str(), d.n, d.dk, d.dv, d.seed);
         notice(problem.c_str());
         // The sizes the maps show as colour, as numbers (the lesson's text cites them).
         notice(i18n::format(tr("At this multiplier: ‖dS‖ = %s, ‖dQ‖ = %s, ‖dK‖ = %s"), num(d.d_scores.norm()).c_str(),
                             num(d.d_q.norm()).c_str(), num(d.d_k.norm()).c_str())
                    .c_str());
         notice(tr("Each gradient map keeps the colours it has at multiplier 1: what fades has shrunk."));
       }},
      {"maps", [&] { maps(lab, next, ui, d, kAllMaps, 250); }},
      {"backward", [&] { maps(lab, next, ui, d, kBackwardMaps, 150); }, true},
      {"sweep", [&] {
         // The same problem as the multiplier grows (log axis).
         Grid sweep(2, 380);
         const std::vector<double> x = doubles(d.sweep_multiplier);
         const std::vector<PlotMarker> here{{double(d.scale_multiplier), tr("now"), 7}};
         PlotSpec spec;
         spec.x_label = tr("scale multiplier (× 1/√d_k)");
         spec.log_x = spec.log2_x = true;
         std::vector<PlotSeries> per_key;
         for (int j = 0; j < d.n; ++j) {
           std::vector<double> y(x.size());
           for (std::size_t r = 0; r < x.size(); ++r) y[r] = d.key_grad_norm(Eigen::Index(r), j);
           per_key.push_back({"k" + std::to_string(j), x, y, PlotSeries::Style::line, j});
         }
         spec.y_label = "‖dK_j‖";
         plot_card(sweep, "per key", card_height(270, 2), tr("‖dK_j‖: the gradient reaching each key"),
                   tr("Large multipliers leave most keys with almost none."), spec, per_key, here);
         spec.y_label = tr("value");
         plot_card(sweep, "saturation", card_height(270, 2), tr("Saturation and the signal through the softmax"),
                   tr("Mean largest weight (1 = one-hot) beside ‖dS‖, ‖dQ‖ and ‖dK‖."), spec,
                   {{tr("mean largest weight"), x, d.max_weight, PlotSeries::Style::dashed, 7},
                    {"‖dS‖", x, d.d_scores_norm, PlotSeries::Style::line, 0, true},
                    {"‖dQ‖", x, d.d_q_norm, PlotSeries::Style::line, 1},
                    {"‖dK‖", x, d.d_k_norm, PlotSeries::Style::line, 2}},
                   here);
       }},
  });
}

}  // namespace ui::views
