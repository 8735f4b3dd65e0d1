// [SECTION] view=stability: where the naive softmax overflows, and −∞ against −1e9.
#include <imgui.h>

#include <cmath>

#include "common.h"
#include "explain.h"
#include "i18n.h"
#include "plot.h"
#include "stability.h"
#include "theme.h"

namespace ui::views {
namespace {

const char* precision_name(attn::Precision p) { return p == attn::Precision::float32 ? "float32" : "float16"; }

std::string label_of(const experiments::SoftmaxSeries& s) {
  return i18n::format(s.softmax == attn::Softmax::naive ? tr("naive, %s") : tr("stable, %s"),
                      precision_name(s.precision));
}

// "never" for the NaN the experiment reports when it does not happen within the sweep.
std::string threshold(float x) { return std::isnan(x) ? tr("never") : num(x); }

}  // namespace

void stability(const lab::Lab& lab, lab::State&, Memory& ui) {
  const experiments::StabilityData& d = *lab.experiment().get<experiments::StabilityData>();
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Numerical stability of the softmax"));
         notice(tr("One row of scores is scaled up until its largest score is the magnitude on the x axis. e^s as "
                   "written overflows to ∞ once s passes ln of the format's largest number, and ∞/∞ is NaN; "
                   "subtracting the row's maximum first keeps every exponential at most 1, in float32 and in float16."));
       }},
      {"plots", [&] {
         const std::vector<double> x = doubles(d.magnitude);
         // Named only: the sentence under the table gives their values, and short labels leave
         // the plot its height on a phone.
         const std::vector<PlotMarker> limits{{d.predicted_overflow_float16, "ln 65504", 4},
                                              {d.predicted_overflow_float32, "ln FLT_MAX", 4}};
         std::vector<PlotSeries> exps, tops;
         for (std::size_t i = 0; i < d.series.size(); ++i) {
           const experiments::SoftmaxSeries& s = d.series[i];
           const int colour = s.softmax == attn::Softmax::naive ? 1 + int(s.precision == attn::Precision::float16) * 3
                                                                : 0 + int(s.precision == attn::Precision::float16) * 2;
           const PlotSeries::Style style =
               s.softmax == attn::Softmax::naive ? PlotSeries::Style::line : PlotSeries::Style::dashed;
           exps.push_back({label_of(s), x, doubles(s.largest_exp), style, colour});
           tops.push_back({label_of(s), x, doubles(s.max_weight), style, colour});
         }
         // Side by side down to a documentation theme's column, lower where narrower than 380
         // pixels each; on a phone one at a time behind buttons naming them: both plots and the
         // thresholds on one screen.
         const bool narrow = Grid(2, 300).per_row() < 2;
         const int one = one_at_a_time(ui, "plots", narrow, {tr("largest e^(…)"), tr("weight")});
         Grid grid(narrow ? 1 : 2, 300);
         const float h = card_height(grid.width() < 380 * ui_scale() ? 180 : 280, 2);
         PlotSpec spec;
         spec.x_label = tr("largest score (magnitude)");
         spec.y_label = tr("largest e^(…)");
         spec.log_y = true;
         if (shown(one, 0))
           plot_card(grid, "exp", h, tr("The row's largest exponential"), tr("Log axis; a line stops where the value is ∞."),
                   spec, exps, limits);
         spec.y_label = tr("weight");
         spec.log_y = false;
         spec.y_max = 1.05;
         if (shown(one, 1))
           plot_card(grid, "weight", h, tr("The top key's weight"), tr("A line stops where the weight is NaN."), spec, tops,
                   limits);
       }},
      {"thresholds", [&] {
         // The measured thresholds, beside the formats' limits.
         if (ImGui::BeginTable("thresholds", 3,
                               ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
           ImGui::TableSetupColumn(tr("softmax, precision"));
           ImGui::TableSetupColumn(tr("first ∞ at magnitude"));
           ImGui::TableSetupColumn(tr("first NaN at magnitude"));
           table_headers_wrapped();
           for (const experiments::SoftmaxSeries& s : d.series) {
             ImGui::TableNextRow();
             ImGui::TableNextColumn();
             text_wrapped(label_of(s));
             ImGui::TableNextColumn();
             ImGui::TextUnformatted(threshold(s.first_overflow).c_str());
             ImGui::TableNextColumn();
             ImGui::TextUnformatted(threshold(s.first_nan).c_str());
           }
           ImGui::EndTable();
         }
         const std::string sweep =
             i18n::format(tr("The sweep steps by %s; the formats overflow past ln 65504 = %s and ln FLT_MAX = %s."),
                          num(d.magnitude_step).c_str(), num(d.predicted_overflow_float16).c_str(),
                          num(d.predicted_overflow_float32).c_str());
         notice(sweep.c_str());
       }},
      {"fills", [&] {
         ImGui::Spacing();
         heading(tr("Blocking a key with −∞ or with −1e9"));
         notice(tr("Row q0 blocks its second half of keys; row q1 blocks every key. −1e9 works like −∞ until a whole "
                   "row is blocked: then every key ties at −1e9 and the row turns uniform instead of empty. float16 "
                   "cannot hold −1e9 and stores −∞."));
         // Two a row on a phone (the heading, the note and the four on one screen); wider
         // elsewhere, where the weights are written in the cells.
         Grid fills(4, ImGui::GetContentRegionAvail().x < 600 * ui_scale() ? 140 : 230);
         const float scale = ui_scale();
         for (const experiments::MaskFillCase& c : d.mask_fills) {
           fills.begin(c.name.c_str(), card_height(std::max(130.0f, fills.width() / scale * 0.45f), 2));
           MapSpec m;
           m.title = i18n::format(c.fill == -INFINITY ? tr("fill −∞, %s") : tr("fill −1e9, %s"),
                                  precision_name(c.precision));
           m.caption = i18n::format(tr("stored as %s"), num(c.stored_fill).c_str());
           m.values = &c.weights;
           m.rows = indexed("q");
           m.cols = indexed("k");
           // A tapped or hovered cell's weight: a phone's narrow cells have no room to write it.
           const HeatmapHit hit = map(ui, lab, c.name.c_str(), m);
           if (hit.row >= 0) {
             begin_readout();
             ImGui::Text("q%d → k%d: %s", hit.row, hit.col, num(c.weights(hit.row, hit.col)).c_str());
             end_readout();
           }
           fills.end();
         }
       }},
  });
}

}  // namespace ui::views
