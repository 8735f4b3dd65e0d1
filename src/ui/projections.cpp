// [SECTION] step 0 of the walkthrough: where Q, K and V come from. In self-attention with
// projections, each token's embedding (a row of X) times the learned W_Q, W_K and W_V; without,
// Q = K = V = X (the lesson's worked example); in cross-attention they are given.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "accessibility.h"
#include "explain.h"
#include "i18n.h"
#include "theme.h"
#include "ui.h"

namespace ui {
namespace {

// What a matrix's rows are: the queries' tokens (X, Q, and self-attention's K and V), the
// keys' (cross-attention's K and V), or the embedding's d_model dimensions (W). Products shown
// beside X, row for row, leave the tokens' names to X: the room goes to their cells.
enum class Rows { queries, beside_x, keys, model };

struct Card {
  const char* title;       // "W_Q", or N_("K  keys"): shown through tr(), the English is the child window's id
  const attn::Matrix* m;
  Rows rows;
  bool columns_are_model;  // X's columns are the embedding's d_model dimensions
  int which;               // 0, 1, 2: Q, K, V (their tooltip does the product); -1: an input
  bool result;             // Q, K, V: what the step makes, outlined like the current stage
};

std::string dims(const attn::Matrix& m) { return std::to_string(m.rows()) + " × " + std::to_string(m.cols()); }

void card(const lab::Lab& lab, lab::State& next, Memory& ui, HeatmapView& view, const Card& c, ImVec2 size) {
  const float scale = ui_scale();
  ImGui::PushStyleColor(ImGuiCol_Border, c.result ? palette().accent : palette().card_border);
  ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, (c.result ? 2.0f : 1.0f) * scale);
  ImGui::BeginChild(c.title, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(tr(c.title));
  ImGui::PopFont();
  // The shape beside the title where it fits (narrow cards drop it; the tooltip has the cell).
  const std::string shape = dims(*c.m);
  if (ImGui::GetItemRectSize().x + ImGui::CalcTextSize(shape.c_str()).x + 2 * ImGui::GetStyle().ItemSpacing.x <
      ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x) {
    ImGui::SameLine();
    ImGui::TextColored(palette().muted_text, "%s", shape.c_str());
  }
  HeatmapSpec spec;
  spec.values = c.m;
  spec.version = lab.version();
  spec.map = render::Colormap::diverging;
  const auto model_dim = [](int e) { return "e" + std::to_string(e); };
  const auto head_dim = [](int d) { return "d" + std::to_string(d); };
  if (c.rows == Rows::queries) spec.row_label = [&](int r) { return lab.query_label(r); };
  else if (c.rows == Rows::keys) spec.row_label = [&](int r) { return lab.key_label(r); };
  else if (c.rows == Rows::beside_x) spec.row_label = [](int) { return std::string(); };
  else spec.row_label = model_dim;
  if (c.columns_are_model) spec.col_label = model_dim;
  else spec.col_label = head_dim;
  const bool tokens = c.rows == Rows::queries || c.rows == Rows::beside_x;
  spec.highlight_row = tokens ? lab.state().query : -1;
  spec.height = ImGui::GetContentRegionAvail().y;
  // Q is the step's matrix: the keyboard's cell moves in it (accessibility.h).
  if (c.which == 0) std::tie(spec.focus_row, spec.focus_col) = focused_cell(lab, ui, lab::Step::input);
  const HeatmapHit hit = view.draw("map", spec);
  if (hit.row >= 0) {
    begin_readout();
    ImGui::PushFont(fonts().mono);
    const std::string title = c.title, name = title.substr(0, title.find(' '));
    ImGui::TextUnformatted((c.which >= 0 ? explain_projection(lab, c.which, hit.row, hit.col)
                                         : name + "[" + std::to_string(hit.row) + ", " + std::to_string(hit.col) +
                                               "] = " + num((*c.m)(hit.row, hit.col)))
                               .c_str());
    ImGui::PopFont();
    end_readout();
  }
  if (hit.clicked && tokens) next.query = hit.row;
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

// Cards side by side in one row of `height`, with widths in proportion to `weights`.
void row_of(const lab::Lab& lab, lab::State& next, Memory& ui, const std::vector<HeatmapView*>& views,
            const std::vector<Card>& cards, const std::vector<float>& weights, float height) {
  const float gap = ImGui::GetStyle().ItemSpacing.x, avail = ImGui::GetContentRegionAvail().x;
  float total = 0;
  for (float w : weights) total += w;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i) ImGui::SameLine(0, gap);
    const float width = (avail - gap * float(cards.size() - 1)) * weights[i] / total;
    card(lab, next, ui, *views[i], cards[i], ImVec2(width, height));
  }
}

// Below this width (a phone's column, or the lab's middle column on a laptop, between its two
// panels) the cards go two to a row: one row of three or four leaves no room for a cell's
// number or a card's title.
constexpr float kNarrow = 600;

// X's share of the width against each product's: X keeps its tokens' names.
constexpr float kXWeight = 1.15f;

void note(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

}  // namespace

void projections(const lab::Lab& lab, lab::State& next, Memory& ui, float height) {
  const lab::State& s = lab.state();
  const float scale = ui_scale(), top = ImGui::GetCursorPosY();
  ImGui::PushFont(fonts().heading);
  ImGui::Text("0  %s", stage_title(lab::Step::input));
  ImGui::PopFont();
  // Q's heatmap is the step's own (what Export's PNG and the keyboard see).
  HeatmapView* views = ui.projection_views;
  const std::vector<HeatmapView*> results{&ui.stage_views[int(lab::Step::input)], &views[4], &views[5]};
  auto row_height = [&](int rows) {
    // In a scrolling column (height 0) each row gets a fixed height.
    if (height <= 0) return 220 * scale;
    const float left = height - (ImGui::GetCursorPosY() - top) - ImGui::GetStyle().WindowPadding.y;
    return std::max((left - ImGui::GetStyle().ItemSpacing.y * float(rows - 1)) / float(rows), 120 * scale);
  };

  if (s.projected()) {
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const std::string what = i18n::format(
        tr("Each token's embedding, a row of X (d_model = %d), times three learned matrices: a query (what it looks "
           "for), a key (what it can be found by), a value (what it passes on). Since W_Q ≠ W_K, a token need not "
           "match itself best."),
        s.dmodel);
    const Card x{"X", &lab.x(), Rows::queries, true, -1, false};
    const Card products[3] = {{"Q = X·W_Q", &lab.q(), Rows::beside_x, false, 0, true},
                              {"K = X·W_K", &lab.k(), Rows::beside_x, false, 1, true},
                              {"V = X·W_V", &lab.v(), Rows::beside_x, false, 2, true}};
    const Card weights[3] = {{"W_Q", &lab.w_q(), Rows::model, false, -1, false},
                             {"W_K", &lab.w_k(), Rows::model, false, -1, false},
                             {"W_V", &lab.w_v(), Rows::model, false, -1, false}};
    if (ImGui::GetContentRegionAvail().x < kNarrow * scale) {
      // A phone: four cards in a row would be 35 pixels of matrix each, under titles cut to
      // "Q = X". What the step does first, across; X beside Q, then K beside V (each row of a
      // product still beside its token's, two by two), then the three W in a row.
      note(what);
      const float h = row_height(3);
      row_of(lab, next, ui, {&views[0], results[0]}, {x, products[0]}, {kXWeight, 1}, h);
      row_of(lab, next, ui, {results[1], results[2]}, {products[1], products[2]}, {1, 1}, h);
      row_of(lab, next, ui, {&views[1], &views[2], &views[3]}, {weights[0], weights[1], weights[2]}, {1, 1, 1}, h * 0.75f);
    } else {
      // X and its three products side by side, one row per token, so each token's row reads
      // across; below each product the W that makes it, and below X what the step does.
      const float both = 2 * row_height(2);  // the two rows' height
      row_of(lab, next, ui, {&views[0], results[0], results[1], results[2]}, {x, products[0], products[1], products[2]},
             {kXWeight, 1, 1, 1}, both * 0.56f);
      const float w = (ImGui::GetContentRegionAvail().x - 3 * gap) / (kXWeight + 3), h = both * 0.44f;
      ImGui::BeginChild("what", ImVec2(w * kXWeight, h), false);
      note(what);
      ImGui::EndChild();
      for (int i = 0; i < 3; ++i) {
        ImGui::SameLine(0, gap);
        card(lab, next, ui, views[1 + i], weights[i], ImVec2(w, h));
      }
    }
  } else if (s.kind == lab::Attention::self) {
    note(tr("Here Q = K = V = X: the lesson's worked example feeds the embeddings in directly, with no projections "
            "(as if W_Q = W_K = W_V = I). Then the score of a token with itself, |x_i|², is often the largest of its "
            "row, so each token tends to attend to itself; real layers learn separate projections."));
    if (ImGui::Button(tr("Use projections: Q = X·W_Q, K = X·W_K, V = X·W_V"))) next.project = true;
    row_of(lab, next, ui, {results[0]}, {{"X = Q = K = V", &lab.q(), Rows::queries, false, 0, true}}, {1},
           row_height(1));
  } else {
    const Card q{N_("Q  queries"), &lab.q(), Rows::queries, false, 0, true},
        k{N_("K  keys"), &lab.k(), Rows::keys, false, 1, true}, v{N_("V  values"), &lab.v(), Rows::keys, false, 2, true};
    if (ImGui::GetContentRegionAvail().x < kNarrow * scale) {
      // Q on its own row, then K beside V (their rows are the same keys, read across), taller:
      // half a row's width gives a cell room for its number only in height. No note, and rows
      // of 200 rather than the scrolling column's 220: the arithmetic panel says what
      // cross-attention is, and the lesson's practice figure stays one phone screen tall.
      const float h = height <= 0 ? 200 * scale : row_height(2);
      row_of(lab, next, ui, {results[0]}, {q}, {1}, h * 0.85f);
      row_of(lab, next, ui, {results[1], results[2]}, {k, v}, {1, 1}, h * 1.15f);
    } else {
      note(tr("Cross-attention: the queries come from one sequence (a decoder's tokens), the keys and values from "
              "another (an encoder's output), each already projected; here Q, K and V are given directly."));
      row_of(lab, next, ui, results, {q, k, v}, {1, 1, 1}, row_height(1));
    }
  }
}

}  // namespace ui
