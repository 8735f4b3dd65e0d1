// [SECTION] view=gradients: the backward pass stage by stage, and what saturation does to it.
#include <imgui.h>

#include <algorithm>

#include "common.h"
#include "explain.h"
#include "gradients.h"
#include "i18n.h"
#include "plot.h"
#include "theme.h"

namespace ui::views {

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
       }},
      {"maps", [&] {
         // The stages, in the order the backward pass computes them. Titles that are only a
         // formula are notation in every language (tr() returns them as they are).
         struct Stage {
           const char* id;
           const char* title;
           const char* caption;
           const attn::Matrix* values;
           const char* cols;
         };
         const Stage stages[] = {
             {"A", N_("A: the weights"), N_("forward pass, for reference"), &d.weights, "k"},
             {"dO", "dO = C", N_("the loss's gradient at the output"), &d.d_output, "d"},
             {"dA", "dA = dO Vᵀ", N_("how the loss moves with each weight"), &d.d_weights, "k"},
             {"dS", "dS = A ⊙ (dA − Σ dA ⊙ A)", N_("through the softmax Jacobian"), &d.d_scores, "k"},
             {"dQ", N_("dQ = scale · dS K"), N_("rows: queries, columns: d_k"), &d.d_q, "d"},
             {"dK", N_("dK = scale · dSᵀ Q"), N_("rows: keys, columns: d_k"), &d.d_k, "d"},
             {"dV", "dV = Aᵀ dO", N_("rows: keys, columns: d_v"), &d.d_v, "d"},
             {"J", N_("Jacobian ∂a_i/∂s_j"), N_("of the selected row: diag(a) − a aᵀ"), &d.jacobian, "s"},
         };
         Grid grid(8, 250);
         const float h = std::max(grid.width() * 1.05f, 230 * scale) / scale;
         for (const Stage& st : stages) {
           grid.begin(st.id, card_height(h, 2));
           MapSpec spec;
           spec.title = tr(st.title);
           spec.caption = tr(st.caption);
           spec.values = st.values;
           spec.diverging = st.values != &d.weights;
           const bool key_rows = st.values == &d.d_k || st.values == &d.d_v;
           const bool jacobian = st.values == &d.jacobian;
           spec.rows = indexed(key_rows ? "k" : jacobian ? "a" : "q");
           spec.cols = indexed(st.cols);
           spec.highlight_row = key_rows || jacobian ? -1 : d.selected_query;
           const HeatmapHit hit = map(ui, lab, st.id, spec);
           if (hit.clicked && !key_rows && !jacobian) next.row = hit.row;
           if (hit.row >= 0)
             ImGui::SetTooltip("%s[%d][%d] = %s", st.id, hit.row, hit.col, num((*st.values)(hit.row, hit.col)).c_str());
           grid.end();
         }
       }},
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
