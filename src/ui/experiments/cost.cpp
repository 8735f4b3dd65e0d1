// [SECTION] view=cost: the reference and the tiled kernel timed on this machine as n grows,
// beside the lesson's formulas for FLOPs, memory and arithmetic intensity.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "common.h"
#include "cost.h"
#include "i18n.h"
#include "number_text.h"
#include "plot.h"
#include "theme.h"

namespace ui::views {

namespace {

// "384 MiB": bytes in the binary unit that keeps the number under 1024.
std::string bytes_text(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  for (; b >= 1024 && u < 4; ++u) b /= 1024;
  return text::fixed(b, b < 10 && u > 0 ? 1 : 0) + " " + units[u];
}

// The least-squares slope of log time against log n over the three largest sizes measured so
// far (NaN before two): fewer than three would follow one noisy point.
struct Slope {
  double value = NAN;
  int from = 0, to = 0;
};
Slope fitted_slope(const std::vector<int>& n, const std::vector<double>& ms) {
  std::vector<std::size_t> used;  // largest n first
  for (std::size_t i = n.size(); i-- > 0 && used.size() < 3;)
    if (std::isfinite(ms[i])) used.push_back(i);
  if (used.size() < 2) return {};
  double mx = 0, my = 0;
  for (std::size_t i : used) mx += std::log(double(n[i])), my += std::log(ms[i]);
  mx /= double(used.size());
  my /= double(used.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i : used) {
    const double dx = std::log(double(n[i])) - mx;
    sxy += dx * (std::log(ms[i]) - my);
    sxx += dx * dx;
  }
  return {sxy / sxx, n[used.back()], n[used.front()]};
}

// A dashed c·n² through the last measured point of `ms`: the slope the lesson predicts.
PlotSeries quadratic_guide(const char* label, const std::vector<int>& n, const std::vector<double>& ms, int colour) {
  PlotSeries g{label, {}, {}, PlotSeries::Style::dashed, colour};
  int last = -1;
  for (std::size_t i = 0; i < n.size(); ++i)
    if (std::isfinite(ms[i])) last = int(i);
  if (last < 0) return g;
  for (int x : n) {
    g.x.push_back(x);
    g.y.push_back(ms[last] * (double(x) / n[last]) * (double(x) / n[last]));
  }
  return g;
}

// The reference's series (red) and the tiled kernel's (blue) of one plot, with a dot per size.
std::vector<PlotSeries> both(const std::vector<double>& n, const char* reference_label,
                             const std::vector<double>& reference, const char* tiled_label,
                             const std::vector<double>& tiled) {
  return {{reference_label, n, reference, PlotSeries::Style::line, 4, true},
          {tiled_label, n, tiled, PlotSeries::Style::line, 0, true}};
}

// A horizontal dashed line at y over the x range.
PlotSeries level(const std::string& label, double x0, double x1, double y, int colour) {
  return {label, {x0, x1}, {y, y}, PlotSeries::Style::dashed, colour};
}

// A softmax pass over the scores (the exponentials, or the division by the sum): about one
// operation for each score read and each written, 8 bytes.
constexpr double kSoftmaxPass = 1.0 / 8;

// The roofline of this machine: a kernel doing I FLOPs per byte it moves runs at most at
// min(peak, bandwidth × I), the slanted roof left of the balance (memory-bound), the flat one
// right of it (compute-bound); every size's measured rate at its intensity under it. The roof
// is two straight segments on log–log axes: three points draw it.
void roofline(const experiments::CostData& d, Grid& grid, float height) {
  const double hi = std::max(*std::max_element(d.reference_intensity.begin(), d.reference_intensity.end()),
                             *std::max_element(d.tiled_intensity.begin(), d.tiled_intensity.end()));
  PlotSpec spec;
  spec.x_label = tr("FLOPs per byte moved");
  spec.y_label = "GFLOP/s";
  spec.log_x = spec.log_y = true;
  spec.x_min = kSoftmaxPass / 2;
  spec.x_max = hi * 2;
  if (std::isnan(d.peak_gflops)) spec.y_min = 0.1, spec.y_max = 100;
  std::vector<PlotSeries> series;
  if (!std::isnan(d.balance))
    series.push_back({tr("this machine's roof"),
                      {spec.x_min, d.balance, spec.x_max},
                      {d.bandwidth_gbs * spec.x_min, d.peak_gflops, d.peak_gflops},
                      PlotSeries::Style::dashed,
                      7});
  series.push_back({tr("reference"), d.reference_intensity, d.reference_gflops, PlotSeries::Style::line, 4, true});
  series.push_back({tr("tiled"), d.tiled_intensity, d.tiled_gflops, PlotSeries::Style::line, 0, true});
  plot_card(grid, "roofline", height, tr("Roofline"),
            tr("Each size's measured rate at its intensity, under min(peak, bandwidth × intensity). Left of the "
               "corner (the balance) a kernel waits on memory, as a softmax pass (the marker) does on any machine."),
            spec, series, {{kSoftmaxPass, tr("a softmax pass"), 4}});
}

void controls(const experiments::CostData& d, const lab::State& s, lab::State& next, Memory& ui) {
  const float scale = ui_scale();
  if (!s.run) {
    if (ImGui::Button(tr("▶ Measure"))) next.run = true;
    ImGui::SameLine();
    notice(tr("Times both kernels at every size below: under a minute in a browser, and the page stays usable."));
  } else if (d.status == experiments::CostStatus::running) {
    if (ImGui::Button(tr("■ Stop"))) next.run = false;
    ImGui::SameLine();
    ImGui::ProgressBar(float(d.progress), ImVec2(std::min(ImGui::GetContentRegionAvail().x, 520 * scale), 0),
                       d.activity.c_str());
  } else {
    if (ImGui::Button(tr("↻ Measure again"))) ui.requests.emplace_back(request::MeasureAgain{});
    ImGui::SameLine();
    if (ImGui::Button(tr("Clear"))) next.run = false;
  }
  if (std::isnan(d.peak_gflops)) return;
  const std::string bandwidth = std::isnan(d.bandwidth_gbs) ? "…" : text::fixed(d.bandwidth_gbs, 1);
  const std::string machine =
      std::isnan(d.balance)
          ? i18n::format(tr("This machine (%s, one thread): %.1f GFLOP/s at most in a multiply-add loop, %s GB/s "
                            "copying 32 MiB."),
                         d.simd.c_str(), d.peak_gflops, bandwidth.c_str())
          : i18n::format(tr("This machine (%s, one thread): %.1f GFLOP/s at most in a multiply-add loop, %s GB/s "
                            "copying 32 MiB: its balance is %s FLOPs per byte (below it, a kernel waits on memory)."),
                         d.simd.c_str(), d.peak_gflops, bandwidth.c_str(), text::fixed(d.balance, 1).c_str());
  notice(machine.c_str());
}

void table(const experiments::CostData& d) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("cost table", 7, flags)) return;
  for (const char* h : {"n", "FLOPs (4n²d_k)", tr("reference"), tr("tiled"), tr("tiled is"), tr("reference holds"),
                        tr("tiled scratch")})
    ImGui::TableSetupColumn(h);
  table_headers_wrapped();
  auto ms_text = [](double ms) { return std::isnan(ms) ? std::string("…") : text::fixed(ms, ms < 10 ? 2 : 0) + " ms"; };
  for (std::size_t i = 0; i < d.sizes.size(); ++i) {
    ImGui::TableNextRow();
    const std::string cells[] = {
        std::to_string(d.sizes[i]),
        d.flops[i] < 1e9 ? text::fixed(d.flops[i] / 1e6, d.flops[i] < 1e7 ? 1 : 0) + " M" : text::fixed(d.flops[i] / 1e9, 2) + " G",
        d.fits[i] ? ms_text(d.reference_ms[i]) : tr("does not fit"),
        ms_text(d.tiled_ms[i]),
        std::isfinite(d.reference_ms[i] / d.tiled_ms[i])
            ? i18n::format(tr("×%s faster"), text::fixed(d.reference_ms[i] / d.tiled_ms[i], 1).c_str())
            : "",
        bytes_text(experiments::reference_bytes(d.sizes[i])),
        bytes_text(experiments::tiled_bytes(d.dk)),
    };
    for (const std::string& c : cells) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.c_str());
    }
  }
  ImGui::EndTable();
}

// The five plots: time, achieved rate, memory, the roofline and arithmetic intensity as n grows;
// or, with `all` false, time, memory and the roofline (a lesson's figure, one screen tall).
void plots(const experiments::CostData& d, bool all, Memory& ui) {
  const std::vector<double> n = doubles(d.sizes), mem_n = doubles(d.memory_n);
  const double n0 = n.front(), n1 = n.back();
  // Three plots a row in a lesson's 768-pixel column (a figure one screen tall, each legend whole),
  // one at a time where three do not fit (a documentation theme's 660-pixel column, a phone).
  const float least = all ? 350 : 230;
  const int one =
      one_at_a_time(ui, "plots", !all && Grid(3, least).per_row() < 3, {tr("time"), tr("memory"), tr("roofline")});
  Grid grid(all ? 5 : one < 0 ? 3 : 1, least);
  // On a phone (one under the other) the time plot, with a shorter legend, lower: both and the
  // Measure button on one screen.
  const bool narrow = grid.width() < 380 * ui_scale();
  const float h = card_height(230, 3), time_h = narrow ? card_height(200, 3) : h;
  PlotSpec spec;
  spec.x_label = tr("sequence length n");
  spec.log_x = spec.log2_x = true;
  spec.x_min = n0;
  spec.x_max = n1;
  // Before anything is measured the empty plots still show the ranges to expect.
  const bool measured = std::any_of(d.tiled_ms.begin(), d.tiled_ms.end(), [](double x) { return std::isfinite(x); });

  const Slope rs = fitted_slope(d.sizes, d.reference_ms), ts = fitted_slope(d.sizes, d.tiled_ms);
  std::string slopes = tr("On log–log axes n² is a line of slope 2.");
  if (!std::isnan(rs.value))
    slopes = std::isnan(ts.value)
                 ? i18n::format(tr("Slope fitted from n = %d to %d: reference %s (n² is 2)."), rs.from, rs.to,
                                text::fixed(rs.value, 2).c_str())
                 : i18n::format(tr("Slope fitted from n = %d to %d: reference %s, tiled %s (n² is 2)."), rs.from, rs.to,
                                text::fixed(rs.value, 2).c_str(), text::fixed(ts.value, 2).c_str());
  PlotSpec time = spec;
  time.y_label = tr("milliseconds per call");
  time.log_y = true;
  if (!measured) time.y_min = 0.01, time.y_max = 1000;
  std::vector<PlotSeries> times = both(n, tr("reference"), d.reference_ms, tr("tiled"), d.tiled_ms);
  times.push_back(quadratic_guide(tr("∝ n² (reference)"), d.sizes, d.reference_ms, 4));
  times.push_back(quadratic_guide(tr("∝ n² (tiled)"), d.sizes, d.tiled_ms, 0));
  if (shown(one, 0))
    plot_card(grid, "time", time_h, tr("Time per call"), slopes + " " + tr("Each point is the median of 3 to 5 passes."), time,
            times);

  if (all) {
    PlotSpec speed = spec;
    speed.y_label = "GFLOP/s";
    speed.y_min = 0;
    if (!measured) speed.y_max = 50;
    std::vector<PlotSeries> rates = both(n, tr("reference"), d.reference_gflops, tr("tiled"), d.tiled_gflops);
    if (!std::isnan(d.peak_gflops)) rates.push_back(level(tr("peak (multiply-add loop)"), n0, n1, d.peak_gflops, 7));
    plot_card(grid, "gflops", h, tr("Achieved GFLOP/s"),
              tr("4n²d_k FLOPs over the measured time, against the loop's peak: the reference spends its time writing "
                 "and rereading n × n matrices."),
              speed, rates);
  }

  PlotSpec memory = spec;
  memory.x_max = mem_n.back();
  memory.y_label = "bytes";
  memory.log_y = true;
  std::vector<PlotSeries> held = {
      {tr("reference: 6 n × n matrices"), mem_n, d.reference_bytes, PlotSeries::Style::line, 4, true},
      {tr("one n × n score matrix (4n²)"), mem_n, d.score_bytes, PlotSeries::Style::line, 1},
      {tr("tiled scratch"), mem_n, d.tiled_bytes, PlotSeries::Style::line, 0, true},
      level(i18n::format(tr("memory limit: %s"), bytes_text(d.memory_limit).c_str()), mem_n.front(), mem_n.back(),
            d.memory_limit, 7)};
  std::vector<PlotMarker> marks;
  for (std::size_t i = 0; i < d.memory_n.size(); ++i)
    if (d.reference_bytes[i] > d.memory_limit) {
      marks.push_back({mem_n[i], tr("reference does not fit"), 4});
      break;
    }
  if (shown(one, 1))
    plot_card(grid, "memory", h, tr("Memory of one head"),
            i18n::format(tr("One reference call holds %s at n = %d; the tiled kernel %s at every n. A model has many "
                            "heads and layers."),
                         bytes_text(experiments::reference_bytes(d.sizes.back())).c_str(), d.sizes.back(),
                         bytes_text(d.tiled_bytes.front()).c_str()),
            memory, held, marks);
  if (shown(one, 2)) roofline(d, grid, h);
  if (!all) return;

  PlotSpec intensity = spec;
  intensity.y_label = tr("FLOPs per byte");
  intensity.log_y = true;
  std::vector<PlotSeries> ai =
      both(n, tr("QKᵀ written to memory"), d.qk_intensity, tr("tiled (Q, K, V read once)"), d.tiled_intensity);
  if (!std::isnan(d.balance)) ai.push_back(level(tr("this machine's balance"), n0, n1, d.balance, 7));
  plot_card(grid, "intensity", h, tr("Arithmetic intensity"),
            tr("QKᵀ: 2n²d_k FLOPs over 4(2nd_k + n²) bytes = nd_k / (2(2d_k + n)), at most d_k/2 = 32. A softmax "
               "pass over an n × n matrix does about one operation for each score it reads and writes, 8 bytes: far "
               "below the balance."),
            intensity, ai);
}

}  // namespace

void cost(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::CostData& d = *lab.experiment().get<experiments::CostData>();
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("The cost of attention, measured"));
         notice(tr("Both kernels compute softmax(QKᵀ/√d_k)V for one head, d_k = d_v = 64, on this machine. The "
                   "reference writes every n × n intermediate (scores, scaled, mask, masked, exponentials, weights); "
                   "the tiled kernel streams the keys through an online softmax and never holds one. Both do about "
                   "4n²d_k FLOPs: doubling n quadruples the work."));
       }},
      {"controls", [&] { controls(d, lab.state(), next, ui); }},
      {"plots", [&] { plots(d, true, ui); }},
      {"time-memory", [&] { plots(d, false, ui); }, true},
      {"table", [&] {
         table(d);
         notice(tr("Flash attention does the same FLOPs as the reference; it moves fewer bytes and holds no n × n "
                   "matrix, so its memory stays flat while the reference's grows as n² until it no longer fits. (The "
                   "lesson's seed writes the intensity of QKᵀ as T·d_k / (4(d_k + T)); its own byte count gives "
                   "T·d_k / (2(2d_k + T)), which tends to d_k/2, not d_k/4.)"));
       }},
  });
}

}  // namespace ui::views
