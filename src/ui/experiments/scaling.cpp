// [SECTION] view=scaling: the variance argument for √d_k, measured by the kernel.
#include <imgui.h>

#include <algorithm>

#include "common.h"
#include "explain.h"
#include "i18n.h"
#include "plot.h"
#include "scaling.h"
#include "theme.h"

namespace ui::views {
namespace {

// The scale series as the plots label them, in ScalingData::scales' order. Only the words are
// a message: tr() returns the factors, notation in every language, as they are.
constexpr const char* kScaleLabels[] = {N_("no scaling"), "1/√d_k", "1/d_k"};

void histogram_card(Grid& grid, const char* id, const char* title, const experiments::Histogram& h,
                    const std::string& caption, const std::string& curve, const char* x_label, float height) {
  PlotSpec spec;
  spec.x_label = x_label;
  spec.y_label = tr("density");
  plot_card(grid, id, height, title, caption, spec,
            {{tr("measured"), doubles(h.centres), h.density, PlotSeries::Style::bars, 0},
             {curve, doubles(h.centres), h.normal_density, PlotSeries::Style::line, 1}});
}

}  // namespace

void scaling(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::ScalingData& d = *lab.experiment().get<experiments::ScalingData>();
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Why the scores are divided by √d_k"));
         notice(tr("With unit-variance entries, q·k spreads wider as d_k grows, and the softmax of wide scores picks "
                   "one key. Dividing by √d_k keeps the spread at 1 for every d_k; dividing by d_k overshoots and "
                   "flattens the weights."));
       }},
      {"controls", [&] {
         int dk = d.dk;
         // The slider leaves room for its label; the note goes beside it where a dozen characters'
         // width is left (else each character would wrap onto a line of its own), below it on a phone.
         const float label_w = ImGui::CalcTextSize("d_k").x + ImGui::GetStyle().ItemInnerSpacing.x;
         ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x - label_w, 360 * ui_scale()));
         if (ImGui::SliderInt("d_k", &dk, 1, experiments::kScalingMaxDk, "%d", ImGuiSliderFlags_Logarithmic)) next.dk = dk;
         beside_if_room(12 * ImGui::GetFontSize(), "");
         ImGui::PushTextWrapPos(0.0f);  // wrapped at the window's edge rather than clipped
         ImGui::TextDisabled(tr("%d × %d scores of N(0, 1) vectors, seed %u"), d.queries, d.keys, d.seed);
         ImGui::PopTextWrapPos();
       }},
      {"histograms", [&] {
         // Side by side where each is at least 300 pixels wide, lower under 380; on a phone one
         // at a time behind buttons naming them: the slider, a histogram and the weights on one
         // screen.
         const bool narrow = Grid(2, 300).per_row() < 2;
         const int one = one_at_a_time(ui, "histograms", narrow, {"q·k", "q·k / √d_k"});
         Grid hist(narrow ? 1 : 2, 300);
         const float h1 = card_height(hist.width() < 380 * ui_scale() ? 120 : 230, 2);
         if (shown(one, 0))
           histogram_card(hist, "raw", tr("q·k before scaling"), d.raw,
                          i18n::format(tr("measured variance %s; the argument predicts d_k = %d"),
                                       num(float(d.variance_raw)).c_str(), d.dk),
                          "N(0, d_k)", "q·k", h1);
         if (shown(one, 1))
           histogram_card(hist, "scaled", "q·k / √d_k", d.scaled,
                          i18n::format(tr("measured variance %s; the argument predicts 1"),
                                       num(float(d.variance_scaled)).c_str()),
                          "N(0, 1)", "q·k / √d_k", h1);
       }},
      {"weights", [&] {
         // Query 0's weights under each scale: one peak, a spread, or a flat line. Three in a row
         // where each card is at least 200 pixels wide; on a phone, one at a time behind the
         // scales' buttons, at the column's width (a third of it leaves the plot a sliver).
         const bool narrow = Grid(3, 100).width() < 200 * ui_scale();
         const int one = one_at_a_time(ui, "weights", narrow, {tr(kScaleLabels[0]), tr(kScaleLabels[1]), tr(kScaleLabels[2])});
         Grid weights(narrow ? 1 : 3, 100);
         std::vector<double> keys(d.scales[0].sample_weights.size());
         for (std::size_t j = 0; j < keys.size(); ++j) keys[j] = double(j);
         for (int m = 0; m < 3; ++m) {
           if (!shown(one, m)) continue;
           const experiments::ScaleSeries& s = d.scales[std::size_t(m)];
           const float top = *std::max_element(s.sample_weights.begin(), s.sample_weights.end());
           PlotSpec spec;
           spec.x_label = tr("key");
           spec.integer_x = true;
           spec.y_label = tr("weight");
           // The scale and the largest weight a line each (the legend names query 0), rather
           // than one sentence wrapped mid-phrase.
           const std::string note = i18n::format(tr("scale %s"), num(s.scale).c_str()) + "\n" +
                                    i18n::format(tr("largest weight %s"), num(top).c_str());
           // On a phone the least height that keeps the plot readable (plot_card's floor), and
           // no title: the button above names the scale.
           plot_card(weights, s.name.c_str(), narrow ? 0 : card_height(170, 2), narrow ? "" : tr(kScaleLabels[m]), note, spec,
                     {{tr("query 0's weights"), keys, doubles(s.sample_weights), PlotSeries::Style::bars, m}});
         }
       }},
      {"sweep", [&] {
         // As d_k grows: entropy and the largest weight, averaged over query rows.
         Grid sweep(2, 380);
         const std::vector<double> x = doubles(d.sweep_dk);
         const std::vector<PlotMarker> here{{double(d.dk), "d_k = " + std::to_string(d.dk), 7}};
         PlotSpec spec;
         spec.x_label = "d_k";
         spec.log_x = spec.log2_x = true;
         std::vector<PlotSeries> entropy, top;
         for (int m = 0; m < 3; ++m) {
           entropy.push_back({tr(kScaleLabels[m]), x, d.scales[std::size_t(m)].entropy, PlotSeries::Style::line, m, true});
           top.push_back({tr(kScaleLabels[m]), x, d.scales[std::size_t(m)].max_weight, PlotSeries::Style::line, m, true});
         }
         entropy.push_back({tr("uniform (ln keys)"), x, std::vector<double>(x.size(), d.uniform_entropy),
                            PlotSeries::Style::dashed, 7});
         spec.y_label = tr("entropy (nats)");
         plot_card(sweep, "entropy", card_height(250, 2), tr("Row entropy as d_k grows"),
                   tr("0 nats is one-hot; the dashed line is perfectly uniform."), spec, entropy, here);
         spec.y_label = tr("largest weight");
         spec.y_max = 1;
         plot_card(sweep, "max weight", card_height(250, 2), tr("Largest weight as d_k grows"),
                   tr("1 means the row attends to a single key."), spec, top, here);
       }},
  });
}

}  // namespace ui::views
