// [SECTION] view=heads: several heads side by side, their concatenation, cross-attention and
// grouped-query attention.
#include <imgui.h>

#include <algorithm>
#include <array>

#include "combo.h"
#include "common.h"
#include "explain.h"
#include "heatmap_layout.h"
#include "heads.h"
#include "i18n.h"
#include "plot.h"
#include "theme.h"

namespace ui::views {
namespace {

std::string shape_text(const std::string& name, const int* dims, int count, const char* axes) {
  std::string text = name + "(";
  for (int i = 0; i < count; ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + ")  " + axes;
}

}  // namespace

void heads(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const experiments::HeadsData& d = *lab.experiment().get<experiments::HeadsData>();
  const attn::Shape& s = d.shape;
  const float scale = ui_scale();
  sections(lab, ui, {
      {"intro", [&] {
         heading(tr("Multi-head, cross- and grouped-query attention"));
         notice(tr("Each head attends with its own slice of Q, so each draws its own pattern; their outputs are laid "
                   "side by side and projected back. With fewer K/V heads than query heads, query heads in one group "
                   "read the same keys and values: only their queries differ."));
       }},
      {"controls", [&] {
         // The number of heads, K/V heads (the divisors of heads), self or cross.
         const float field = std::min(ImGui::GetContentRegionAvail().x * 0.3f, 180 * scale);
         int h = s.heads;
         ImGui::SetNextItemWidth(field);
         if (ImGui::SliderInt(tr("heads"), &h, 1, lab::Limits::max_heads)) {
           next.heads = h;
           next.kv_heads = std::min(s.kv_heads, h);
           while (h % next.kv_heads) --next.kv_heads;  // the largest divisor of h at most the old K/V count
         }
         beside_if_room(field, tr("K/V heads"));
         ImGui::SetNextItemWidth(field);
         std::string kv_label = std::to_string(s.kv_heads);
         if (begin_combo(tr("K/V heads"), kv_label.c_str())) {
           for (int kv = 1; kv <= s.heads; ++kv)
             if (s.heads % kv == 0 && ImGui::Selectable(std::to_string(kv).c_str(), kv == s.kv_heads)) next.kv_heads = kv;
           end_combo();
         }
         beside_if_room(ImGui::GetFrameHeight(), tr("cross-attention"));
         bool cross = lab.state().kind == lab::Attention::cross;
         if (ImGui::Checkbox(tr("cross-attention"), &cross)) {
           next.kind = cross ? lab::Attention::cross : lab::Attention::self;
           if (cross && next.nk == next.nq) next.nk = next.nq + 2;  // n_q ≠ n_k is what makes it visible
         }
         if (cross) {
           int nq = s.nq, nk = s.nk;
           ImGui::SetNextItemWidth(field);
           if (ImGui::SliderInt("n_q", &nq, 1, 16)) next.nq = nq;
           beside_if_room(field, "n_k");
           ImGui::SetNextItemWidth(field);
           if (ImGui::SliderInt("n_k", &nk, 1, 16)) next.nk = nk;
         }
       }},
      {"shapes", [&] {
         // The shapes, axes (batch, heads, n, d).
         const std::vector<std::string> names = aligned({"Q", "K", "V", tr("weights"), tr("output"), "concat"}, 1);
         ImGui::PushFont(fonts().mono);
         ImGui::TextUnformatted(shape_text(names[0], d.q_shape.data(), 4, tr("(batch, heads, n_q, d_k)")).c_str());
         ImGui::TextUnformatted(shape_text(names[1], d.k_shape.data(), 4, tr("(batch, K/V heads, n_k, d_k)")).c_str());
         ImGui::TextUnformatted(shape_text(names[2], d.v_shape.data(), 4, tr("(batch, K/V heads, n_k, d_v)")).c_str());
         ImGui::TextUnformatted(shape_text(names[3], d.weights_shape.data(), 4, tr("(batch, heads, n_q, n_k)")).c_str());
         ImGui::TextUnformatted(shape_text(names[4], d.output_shape.data(), 4, tr("(batch, heads, n_q, d_v)")).c_str());
         ImGui::TextUnformatted(shape_text(names[5], d.concat_shape.data(), 3, tr("(batch, n_q, heads · d_v)")).c_str());
         ImGui::PopFont();
         std::string groups;
         for (std::size_t g = 0; g < d.groups.size(); ++g) {
           std::string queries;
           for (int q : d.groups[g]) queries += (queries.empty() ? "" : " ") + std::to_string(q);
           groups += (g ? ";  " : "") + i18n::format(tr("K/V head %d ← query heads %s"), int(g), queries.c_str());
         }
         if (d.cross) ImGui::TextWrapped("%s  %s", tr("Cross-attention (n_q ≠ n_k)."), groups.c_str());
         else text_wrapped(groups);
       }},
      {"maps", [&] {
         // One card per head, its border in its K/V group's colour: two a row on a phone, so that
         // the controls and four heads are on one screen.
         Grid grid(int(d.heads.size()), 160);
         // As tall as the matrix at the cell size the card's width allows (HeatmapView's cap).
         const float cell = std::min((grid.width() - 70 * scale) / float(s.nk), kMaxCell * scale);
         const float hh = std::max(cell * float(s.nq) + ImGui::GetTextLineHeight() * 3.4f, 110 * scale) / scale;
         for (const experiments::HeadView& v : d.heads) {
           const std::string id = "head " + std::to_string(v.head);
           ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(plot_colour(v.kv_head)));
           grid.begin(id.c_str(), card_height(hh, 2));
           MapSpec m;
           m.title = i18n::format(tr("head %d"), v.head);
           m.caption = i18n::format(tr("reads K/V head %d"), v.kv_head);
           m.values = &v.weights;
           m.rows = indexed("q");
           m.cols = indexed("k");
           map(ui, lab, id.c_str(), m);
           grid.end();
           ImGui::PopStyleColor();
         }
       }},
      {"concat", [&] {
         Grid concat(1, 300);
         concat.begin("concat", card_height(std::clamp(float(s.nq) * 28 + 60, 140.0f, 420.0f), 2));
         MapSpec m;
         m.title = tr("Concatenated output");
         m.caption = tr("row i: query i's output of every head side by side (head h in columns h·d_v … (h+1)·d_v − 1)");
         m.values = &d.concatenated;
         m.diverging = true;
         m.rows = indexed("q");
         const int dv = s.dv;
         m.cols = [dv](int c) { return "h" + std::to_string(c / dv) + "." + std::to_string(c % dv); };
         map(ui, lab, "concat", m);
         concat.end();
       }},
  });
}

}  // namespace ui::views
