// [SECTION] view=tiling: the online softmax walked tile by tile, and the memory it saves.
#include <imgui.h>

#include <algorithm>

#include "common.h"
#include "explain.h"
#include "i18n.h"
#include "plot.h"
#include "theme.h"
#include "tiling.h"

namespace ui::views {
namespace {

// The walk's three maps side by side in a phone's column: cells a few pixels wide, too small
// for a finger, so there they are pictures, and the row's plots carry the numbers.
bool walk_narrow(const Grid& grid) { return grid.width() < 200 * ui_scale(); }
// The walk's grid: three in a row down to a 320-pixel phone's 288-pixel column.
Grid walk_grid() { return Grid(3, 80); }

}  // namespace

void tiling(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::TilingData& d = *lab.experiment().get<experiments::TilingData>();
  const attn::OnlineSoftmaxWalk& w = d.walk;
  const float scale = ui_scale();
  const int q = std::min(lab.state().query, d.n - 1);
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Tiled attention: the online softmax"));
         notice(tr("The keys arrive one tile at a time. Each query row keeps only a running maximum m, a running sum l "
                   "and an unnormalised output o; when a tile raises m, the earlier l and o shrink by the rescale "
                   "factor e^(m − m'). After the last tile o / l equals the reference, and the n × n score matrix "
                   "never exists."));
       }},
      {"controls", [&] {
         int n = d.n, tile = d.tile;
         ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.4f, 240 * scale));
         if (ImGui::SliderInt(tr("n (queries = keys)"), &n, 1, lab::Limits::max_tiling_n)) next.nq = next.nk = n;
         const float tile_w = std::min(ImGui::GetContentRegionAvail().x * 0.4f, 200 * scale);
         beside_if_room(tile_w, tr("keys per tile"));
         ImGui::SetNextItemWidth(tile_w);
         if (ImGui::SliderInt(tr("keys per tile"), &tile, 1, d.n)) next.tile = tile;
         const std::string problem = i18n::format(
             walk_narrow(walk_grid())
                 ? tr("Tiles: %d; d_k = d_v = %d, scale 1/√d_k, seed %u. Query q%d is plotted below.")
                 : device_hint(ui, N_("Tiles: %d; d_k = d_v = %d, scale 1/√d_k, seed %u. Selected query: q%d (click a row)."),
                               N_("Tiles: %d; d_k = d_v = %d, scale 1/√d_k, seed %u. Selected query: q%d (tap a row).")),
             w.tiles, d.dk, d.seed, lab.state().query);
         notice(problem.c_str());
         if (w.tiles == 1)
           notice(tr("All the keys fit in one tile here: raise n or lower the keys per tile to see the rescaling."));
       }},
      {"walk", [&] {
         // The three maps in one row, even on a phone (there lower, titled by their symbols alone,
         // as the lesson's recurrence writes them), so that the sliders, the walk and the row's
         // plots are on one screen.
         Grid grid = walk_grid();
         const bool narrow = walk_narrow(grid);
         // Lower in a lesson's figure, so that a tablet's wider column (1024 × 768) keeps the
         // walk and the row's plots on its screen.
         const float tall = lab.state().is_figure() ? 0.75f : 0.9f;
         const float h = narrow ? 140 : std::clamp(grid.width() * tall, 200 * scale, 420 * scale) / scale;
         const struct {
           const char* id;
           const char* title;
           const char* symbol;
           const char* caption;
           const attn::Matrix* values;
           bool diverging;
         } walks[] = {
             {"running max", N_("Running max m"), "m", N_("after each tile (rows: queries)"), &w.running_max, true},
             {"rescale", N_("Rescale e^(m − m')"), "e^(m−m')", N_("1: this tile did not raise the max"), &w.rescale,
              false},
             {"running sum", N_("Running sum l"), "l", N_("after each tile, in units of e^m"), &w.running_sum, false},
         };
         for (const auto& card : walks) {
           grid.begin(card.id, card_height(h, narrow ? 1 : 2));
           MapSpec spec;
           spec.title = narrow ? card.symbol : tr(card.title);
           if (!narrow) spec.caption = tr(card.caption);
           spec.values = card.values;
           spec.diverging = card.diverging;
           spec.hi = card.values->maxCoeff();
           spec.rows = indexed("q");
           spec.cols = indexed("t");
           spec.highlight_row = lab.state().query;
           spec.picture = narrow;
           const HeatmapHit hit = map(ui, lab, card.id, spec);
           if (hit.clicked) next.query = hit.row;
           if (hit.row >= 0) {
             begin_readout();
             ImGui::Text(tr("q%d after tile %d: m = %s, max of this tile %s, rescale %s, l = %s"), hit.row, hit.col,
                         num(w.running_max(hit.row, hit.col)).c_str(), num(w.tile_max(hit.row, hit.col)).c_str(),
                         num(w.rescale(hit.row, hit.col)).c_str(), num(w.running_sum(hit.row, hit.col)).c_str());
             end_readout(hit.min, hit.max);
           }
           grid.end();
         }
       }},
      {"row", [&] {
         // The selected row's recurrence, tile by tile.
         std::vector<double> tiles, tile_max, running_max, rescale, sum;
         for (int t = 0; t < w.tiles; ++t) {
           tiles.push_back(t);
           tile_max.push_back(w.tile_max(q, t));
           running_max.push_back(w.running_max(q, t));
           rescale.push_back(w.rescale(q, t));
           sum.push_back(w.running_sum(q, t));
         }
         // Side by side down to a documentation theme's column, lower where narrower than 380
         // pixels each; on a phone one at a time behind buttons naming them, so that the sliders,
         // the walk and the row's plot are on one screen.
         const bool narrow = Grid(2, 300).per_row() < 2;
         const int one = one_at_a_time(ui, "row", narrow, {tr("running max m"), tr("running sum l")});
         Grid row(narrow ? 1 : 2, 300);
         const float plot_h = row.width() < 380 * scale ? 140 : lab.state().is_figure() ? 180 : 240;
         PlotSpec spec;
         spec.x_label = tr("tile");
         spec.integer_x = true;
         spec.y_label = tr("score");
         spec.y_min = std::min({*std::min_element(tile_max.begin(), tile_max.end()), 0.0});
         if (shown(one, 0))
           plot_card(row, "row max", card_height(plot_h, 1), i18n::format(tr("Query q%d: max and rescale"), q), "",
                   spec,
                   {{tr("this tile's max"), tiles, tile_max, PlotSeries::Style::bars, 7},
                    {tr("running max m"), tiles, running_max, PlotSeries::Style::line, 0, true},
                    {tr("rescale e^(m − m')"), tiles, rescale, PlotSeries::Style::line, 1, true}});
         spec = PlotSpec();
         spec.x_label = tr("tile");
         spec.integer_x = true;
         spec.y_label = "l";
         // Its title says where l ends, the number the lesson asks for as the tiles change: read
         // without pointing at the last point (a target a few pixels wide on a phone).
         if (shown(one, 1))
           plot_card(row, "row sum", card_height(plot_h, 1),
                     i18n::format(tr("Query q%d: l ends at %s"), q, num(sum.back()).c_str()), "", spec,
                     {{tr("running sum l"), tiles, sum, PlotSeries::Style::line, 2, true}});
       }},
      {"outputs", [&] {
         // The result against the reference.
         Grid result(3, 300);
         const float rh = std::clamp(result.width() * 0.9f, 200 * scale, 420 * scale) / scale;
         const struct {
           const char* id;
           const char* title;
           std::string caption;
           const attn::Matrix* values;
         } outputs[] = {
             {"walk output", tr("Walk: o / l after the last tile"),
              i18n::format(tr("max |walk − reference| = %s"), num(d.walk_difference).c_str()), &w.output},
             {"tiled output", tr("The SIMD tiled kernel"),
              i18n::format(tr("max |tiled − reference| = %s"), num(d.tiled_difference).c_str()), &d.tiled_output},
             {"reference output", tr("Reference softmax(S) V"), tr("the whole score matrix at once"),
              &d.reference_output},
         };
         for (const auto& card : outputs) {
           result.begin(card.id, card_height(rh, 2));
           MapSpec m;
           m.title = card.title;
           m.caption = card.caption;
           m.values = card.values;
           m.diverging = true;
           m.rows = indexed("q");
           m.cols = indexed("d");
           m.highlight_row = q;
           map(ui, lab, card.id, m);
           result.end();
         }
       }},
      {"memory", [&] {
         // The memory of the two approaches.
         Grid memory(1, 300);
         PlotSpec spec;
         spec.x_label = tr("sequence length n");
         spec.y_label = tr("bytes");
         spec.log_x = spec.log2_x = spec.log_y = true;
         const std::vector<double> x = doubles(d.memory_n);
         plot_card(memory, "memory", card_height(260, 2), tr("Memory of one head as n grows"),
                   tr("The score matrix needs 4n² bytes; the walk holds one K and V tile, the tile's scores and m, l, o: "
                      "independent of n."),
                   spec,
                   {{tr("n × n float32 scores"), x, d.score_bytes, PlotSeries::Style::line, 4, true},
                    {i18n::format(tr("tiled working set (tile %d)"), d.tile), x, d.tiled_bytes, PlotSeries::Style::line,
                     0, true}},
                   {{double(d.n), "n = " + std::to_string(d.n), 7}});
       }},
  });
}

}  // namespace ui::views
