// [SECTION] view=model's circuits (issue 42; the numbers are ModelView's and lm/circuits.h's,
// computed once per text or per weight file, never per frame): the chosen character's logit
// split exactly into the embedding's part and each head's, with each head's total effect beside
// its direct part; "change a letter" on a text typed twice; the opened head's OV map and its QK
// character and position parts; how the heads of a later layer read the earlier ones.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "combo.h"
#include "i18n.h"
#include "model_parts.h"
#include "number_text.h"
#include "plot.h"
#include "theme.h"
#include "input/item_layout.h"

namespace ui::views {
namespace {

std::string signed_text(double x) { return (x >= 0 ? "+" : "−") + text::fixed(std::fabs(x), 2); }

std::string quoted(const lab::Lab& lab, int token) {
  return "\"" + shown(lab.model().model()->vocab.text(token)) + "\"";
}

// One row of a bar figure: its name, its value as a bar from the zero line (positive to the
// right, in the accent colour; negative to the left, muted), and a second value drawn as an
// outline under it (its own number beside the first), or NaN for none.
struct BarRow {
  std::string name;
  double value = 0, second = NAN;
  bool strong = false;  // the sum: drawn in the text colour
};

constexpr float kMaxBarWidth = 320;  // CSS pixels at scale 1: both halves of the bars, wide enough to compare

// The rows as one figure (one item, `id`, in the layout): the names, the bars on one scale, the
// values' numbers; `columns` the two numbers' headings ("" for none).
void bar_figure(const char* id, const std::vector<BarRow>& rows, const char* first, const char* second) {
  // Rows tight enough that a model of three layers (13 rows and the sum) fits a phone's screen.
  const float scale = ui_scale(), line = ImGui::GetTextLineHeight() + 4 * scale;
  ImGui::PushFont(fonts().mono);
  float name_w = 0;
  for (const BarRow& r : rows) name_w = std::max(name_w, ImGui::CalcTextSize(r.name.c_str()).x);
  // As wide as a number or its heading, whichever is wider ("directo" in Spanish).
  const float number_w =
      std::max({ImGui::CalcTextSize("−00.00").x, ImGui::CalcTextSize(first).x, ImGui::CalcTextSize(second).x}) + 8 * scale;
  const bool two = std::any_of(rows.begin(), rows.end(), [](const BarRow& r) { return !std::isnan(r.second); });
  // The bars beside their names, at most kMaxBarWidth wide: on a wide card the figure keeps to
  // its left rather than stretching the bars away from the names and the numbers.
  const float numbers_w = number_w * (two ? 2 : 1), bar_x = name_w + 8 * scale;
  const float bar_w = std::clamp(ImGui::GetContentRegionAvail().x - bar_x - numbers_w, 40 * scale, kMaxBarWidth * scale);
  const float width = bar_x + bar_w + numbers_w;
  double top = 1e-9;
  for (const BarRow& r : rows) top = std::max({top, std::fabs(r.value), std::isnan(r.second) ? 0 : std::fabs(r.second)});
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float height = line * float(rows.size() + 1);
  input::next_item(input::ItemKind::plot, id);
  ImGui::InvisibleButton(id, ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const Palette& p = palette();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), muted = ImGui::ColorConvertFloat4ToU32(p.muted_text);
  const ImU32 accent = ImGui::ColorConvertFloat4ToU32(p.accent);
  const float zero = origin.x + bar_x + bar_w / 2;
  const auto at = [&](double v) { return zero + float(v / top) * (bar_w / 2 - 2 * scale); };
  const float numbers_x = origin.x + bar_x + bar_w + 4 * scale;
  draw->AddText(ImVec2(numbers_x, origin.y), muted, first);
  if (two) draw->AddText(ImVec2(numbers_x + number_w, origin.y), muted, second);
  draw->AddLine(ImVec2(zero, origin.y + line), ImVec2(zero, origin.y + height), muted, scale);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BarRow& r = rows[i];
    const float y = origin.y + line * float(i + 1), mid = y + line / 2;
    const ImU32 ink = r.strong ? text : r.value >= 0 ? accent : muted;
    draw->AddText(ImVec2(origin.x, y + 2 * scale), r.strong ? text : muted, r.name.c_str());
    draw->AddRectFilled(ImVec2(std::min(zero, at(r.value)), y + 2 * scale), ImVec2(std::max(zero, at(r.value)), mid),
                        ink);
    draw->AddText(ImVec2(numbers_x, y + 2 * scale), text, signed_text(r.value).c_str());
    if (std::isnan(r.second)) continue;
    draw->AddRect(ImVec2(std::min(zero, at(r.second)), mid + 1), ImVec2(std::max(zero, at(r.second)), y + line - 2 * scale),
                  text, 0, 0, scale);
    draw->AddText(ImVec2(numbers_x + number_w, y + 2 * scale), text, signed_text(r.second).c_str());
  }
  ImGui::PopFont();
}

// A small button that sets the state when pressed, shown pressed when it is the state's.
bool choice(const std::string& label, bool on) {
  if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::SmallButton(label.c_str());
  if (on) ImGui::PopStyleColor();
  return pressed && !on;
}

MapSpec readable_map(const lab::Lab& lab, const attn::Matrix& values, std::string title, std::string caption) {
  const std::vector<int>& chars = lab.model().circuits()->readable;
  const auto label = [&lab, &chars](int i) { return shown(lab.model().model()->vocab.text(chars[std::size_t(i)])); };
  MapSpec spec;
  spec.title = std::move(title);
  spec.caption = std::move(caption);
  spec.values = &values;
  spec.diverging = true;
  spec.rows = label;
  spec.cols = label;
  // One version per weight file: the maps do not change with the text.
  spec.version = std::uint64_t(std::uintptr_t(lab.model().circuits()));
  spec.height = std::min(ImGui::GetContentRegionAvail().x, 520 * ui_scale());
  return spec;
}

}  // namespace

std::string head_name(const lab::Lab& lab, int index) {
  const int heads = lab.model().model()->config.heads;
  return head_name(index / heads, index % heads);
}

void attribution(const lab::Lab& lab, lab::State& next) {
  const lab::ModelView& mv = lab.model();
  const lab::ModelView::Result& r = mv.result();
  if (!r.attribution_error.empty()) note(r.attribution_error);
  if (!r.attribution) return;
  const lm::Attribution& a = *r.attribution;
  const lab::State& s = lab.state();
  const bool tokens = by_token(lab), norm = !mv.model()->params.final_norm.empty();
  heading(a.against < 0 ? i18n::format(tokens ? tr("Why %s after token %d: its logit, part by part")
                                              : tr("Why %s after character %d: its logit, part by part"),
                                       quoted(lab, a.target).c_str(), a.position)
                        : i18n::format(tokens ? tr("Why %s and not %s after token %d: the logits' difference, part by part")
                                              : tr("Why %s and not %s after character %d: the logits' difference, part by part"),
                                       quoted(lab, a.target).c_str(), quoted(lab, a.against).c_str(), a.position));
  notice(norm ? tr("The residual stream is a sum: the token's embedding and position, what each head wrote, each "
                   "layer's attention bias and each MLP. The final layer norm centres the whole and divides it by its "
                   "spread: the centring splits over the parts, the division does not, so (as TransformerLens does) "
                   "the spread is held at its value for this token, which leaves a logit an exact sum of those parts "
                   "and the norm's bias, read through the output. The filled bars are those parts (direct) and "
                   "add up to the total. The outlined bars are each head's total effect: how much the number falls "
                   "when the head is switched off, through every path, also through the later layers that read it.")
              : tr("The model has no layer norm and nothing but attention, so a logit is exactly a sum: the "
                   "character's own embedding, plus what each head wrote, read through the output. The filled bars "
                   "are those parts (direct) and add up to the total. The outlined bars are each head's total effect: "
                   "how much the number falls when the head is switched off, through every path, also through the "
                   "later heads that read it."));
  // What to split: the next character or one the model predicts; alone or against another.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("Split:"));
  ImGui::SameLine();
  if (choice(tokens ? tr("the next token") : tr("the next character"), s.target.empty())) next.target.clear();
  for (const lab::ModelView::Prediction& guess : mv.top(a.position, 3)) {
    const std::string& t = mv.model()->vocab.text(guess.token);
    const std::string label = quoted(lab, guess.token);
    beside_if_room(ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x, "");
    if (choice(label + "##target", s.target == t)) next.target = t;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("Against:"));
  ImGui::SameLine();
  if (choice(tr("nothing (minus the mean logit)"), s.against.empty())) next.against.clear();
  for (const lab::ModelView::Prediction& guess : mv.top(a.position, 3)) {
    if (guess.token == a.target) continue;
    const std::string& t = mv.model()->vocab.text(guess.token);
    const std::string label = quoted(lab, guess.token);
    beside_if_room(ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x, "");
    if (choice(label + "##against", s.against == t)) next.against = t;
  }
  std::vector<BarRow> rows;
  double heads = 0, rest = 0;  // the heads' direct parts; the biases' and MLPs'
  bool others = false;         // whether the model has parts beside the embedding and the heads
  for (const lm::AttributionPart& p : lm::ordered_parts(*mv.model(), a)) {
    using Kind = lm::AttributionPart::Kind;
    switch (p.kind) {
      case Kind::embedding: rows.push_back({tr("embedding"), p.direct, NAN}); continue;
      case Kind::head: rows.push_back({head_name(lab, p.head), p.direct, p.total}); heads += p.direct; continue;  // total NaN while pending
      case Kind::attention_bias: rows.push_back({i18n::format(tr("%d attention bias"), p.layer), p.direct, NAN}); break;
      case Kind::mlp: rows.push_back({i18n::format(tr("%d MLP"), p.layer), p.direct, NAN}); break;
      case Kind::final_bias: rows.push_back({tr("final norm's bias"), p.direct, NAN}); break;
      case Kind::unembed_bias: rows.push_back({tr("unembedding's bias"), p.direct, NAN}); break;
    }
    rest += p.direct;
    others = true;
  }
  const double sum = a.sum();
  rows.push_back({tr("sum"), sum, NAN, true});
  bar_figure("attribution", rows, tr("direct"), tr("total"));
  const char* what = a.against < 0 ? tr("logit minus the mean logit") : tr("difference of the two logits");
  if (others)
    text_wrapped(i18n::format(tr("Embedding %s + the heads' direct parts %s + the biases' and MLPs' parts %s = %s: the %s "
                                 "the model computed."),
                              signed_text(a.embedding).c_str(), signed_text(heads).c_str(), signed_text(rest).c_str(),
                              signed_text(sum).c_str(), what)
                     .c_str());
  else
    text_wrapped(i18n::format(tr("Embedding %s + the heads' direct parts %s = %s: the %s the model computed."),
                              signed_text(a.embedding).c_str(), signed_text(heads).c_str(), signed_text(sum).c_str(), what)
                     .c_str());
  if (std::fabs(sum - a.value) > 1e-3)  // never expected: the parts are a sum by construction
    note(i18n::format(tr("The parts add up to %s, not %s."), signed_text(sum).c_str(), signed_text(a.value).c_str()));
}

void change_a_letter(const lab::Lab& lab, lab::State& next) {
  const lab::ModelView& mv = lab.model();
  const lab::ModelView::Result& r = mv.result();
  if (!r.edit_error.empty()) note(r.edit_error);
  if (!mv.circuits()) return;
  heading(tr("Change a letter"));
  if (!r.period) {
    notice(tr("This needs a text typed twice: press \"Repeat my text\" above, then change a letter of the first "
              "copy and see whether the second copy follows."));
    return;
  }
  const int position = chosen_character(lab), last = r.period - 2;  // the first copy's characters: 0 … last
  if (position < 0 || position > last) {
    notice(tr("Your text is typed twice. Click or tap a character of the first copy (above) to change it, and see "
              "whether the second copy follows."));
    return;
  }
  const std::string& from = r.tokens[std::size_t(position)];
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::format(tr("Character %d, \"%s\", of the first copy becomes"), position, shown(from).c_str()).c_str());
  ImGui::SameLine();
  const std::string current = lab.state().edit && lab.state().edit->first == position ? lab.state().edit->second : "";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  input::next_item(input::ItemKind::combo, tr("new letter"));
  if (begin_combo("##new letter", current.empty() ? "…" : shown(current).c_str())) {
    for (int token : mv.circuits()->readable) {
      const std::string& t = mv.model()->vocab.text(token);
      if (t != from && ImGui::Selectable(shown(t).c_str(), t == current)) next.edit = std::pair{position, t};
    }
    end_combo();
  }
  if (lab.state().edit) {
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Undo the change"))) next.edit.reset();
  }
  if (!r.edit) return;
  const lab::ModelView::Result::Edit& e = *r.edit;
  const int at = e.position + r.period - 1;
  notice(i18n::format(tr("Where the second copy comes to that letter (after character %d, \"%s\"), the probability the "
                         "model gives \"%s\":"),
                      at, shown(r.tokens[std::size_t(at)]).c_str(), shown(e.to).c_str())
             .c_str());
  const std::vector<BarRow> rows{{tr("as typed"), e.before},
                                 {i18n::format(tr("\"%s\" → \"%s\""), shown(e.from).c_str(), shown(e.to).c_str()), e.after},
                                 {i18n::format(tr("and %s off"), head_name(lab, e.head).c_str()), e.after_without}};
  bar_figure("edit", rows, "p", "");
}

// The opened head's circuits, or nullptr after saying how to open one.
const lm::HeadCircuit* open_circuit(const lab::Lab& lab, int head) {
  const lm::Circuits* c = lab.model().circuits();
  if (!c) return nullptr;
  if (head < 0 || head >= int(c->heads.size())) {
    heading(tr("What a head writes and what it looks for"));
    notice(tr("Open a head (click or tap its map above) to see what it writes and what it looks for."));
    return nullptr;
  }
  return &c->heads[std::size_t(head)];
}

void head_ov(const lab::Lab& lab, Memory& ui, int head) {
  const lm::HeadCircuit* h = open_circuit(lab, head);
  if (!h) return;
  const std::string name = head_name(lab, head);
  heading(i18n::format(tr("What head %s writes and what it looks for"), name.c_str()).c_str());
  notice(i18n::format(by_token(lab)
                          ? tr("Copying score %s (from −1 to +1: the sum of the eigenvalues of its OV map over the whole "
                               "vocabulary over the sum of their sizes): the weights alone, whatever the text. The maps "
                               "below are over your text's own tokens.")
                          : tr("Copying score %s (from −1 to +1: the sum of its OV map's eigenvalues over the sum of their sizes; "
                               "+1 copies every character it reads). Over the lower-case letters, the space and the Spanish "
                               "letters; the weights alone, whatever the text."),
                      signed_text(h->copying).c_str())
             .c_str());
  map(ui, lab, "model ov",
      readable_map(lab, h->ov,
                   i18n::format(by_token(lab) ? tr("OV: the logit head %s adds, by the token it reads (row; your text's tokens)")
                                              : tr("OV: the logit head %s adds, by the character it reads (row)"),
                                name.c_str()),
                   tr("A head that copies has its diagonal red (a logit raised; blue: lowered): reading \"a\", it raises \"a\".")));
}

void head_qk(const lab::Lab& lab, Memory& ui, int head) {
  const lm::HeadCircuit* h = open_circuit(lab, head);
  if (!h) return;
  const std::string name = head_name(lab, head);
  map(ui, lab, "model qk",
      readable_map(lab, h->qk,
                   i18n::format(by_token(lab) ? tr("QK of head %s, token part: the score of a key token (column) for a "
                                                   "query (row)")
                                              : tr("QK of head %s, character part: the score of a key character (column) "
                                                   "for a query (row)"),
                                name.c_str()),
                   tr("Its own embedding's part only; the position part is below.")));
}

void head_positions(const lab::Lab& lab, int head) {
  const lm::HeadCircuit* h = open_circuit(lab, head);
  if (!h) return;
  const int shown_offsets = std::min<int>(int(h->positions.size()), 32);
  PlotSeries series{tr("score"), {}, {}, PlotSeries::Style::bars, 0};
  for (int d = 0; d < shown_offsets; ++d) {
    series.x.push_back(d);
    series.y.push_back(h->positions[std::size_t(d)]);
  }
  heading(tr("QK, position part: the score by how far back the key is"));
  PlotSpec spec;
  spec.x_label = tr("characters back (0: the query itself)");
  spec.integer_x = true;
  spec.legend = false;
  spec.height = 200;
  plot("model positions", spec, {series});
}

void head_circuits(const lab::Lab& lab, Memory& ui, int head) {
  if (!open_circuit(lab, head)) return;
  head_ov(lab, ui, head);
  head_qk(lab, ui, head);
  head_positions(lab, head);
}

void composition(const lab::Lab& lab, Memory& ui, bool with_map) {
  const lab::ModelView& mv = lab.model();
  const lm::Circuits* c = mv.circuits();
  const lab::ModelView::Result& r = mv.result();
  if (!c || c->composition.empty()) return;
  heading(tr("How the heads compose"));
  const auto [low, high] = std::minmax_element(c->composition.begin(), c->composition.end(),
                                               [](const lm::Composition& a, const lm::Composition& b) {
                                                 return a.frobenius < b.frobenius;
                                               });
  notice(i18n::format(tr("A head of a later layer can look for a key by what an earlier head wrote there. Share: of the "
                         "readable characters, how many find their own character's key first through the earlier head "
                         "(the diagonal wins). The usual single number for this, the Frobenius K-composition score of "
                         "the weights, is %s to %s over these pairs, where two unrelated matrices of this width give "
                         "about %s (1/√%d): it says little here, so it is not a column. The characters and the "
                         "switches say more."),
                      text::fixed(low->frobenius, 3).c_str(), text::fixed(high->frobenius, 3).c_str(),
                      text::fixed(c->frobenius_random, 3).c_str(), mv.model()->config.d_model)
             .c_str());
  if (r.period)
    notice(tr("On your text typed twice, the later head's induction score with every head on and with the earlier "
              "one switched off: a large fall says it needs that head."));
  // With a head open, the pairs it is in (a model of three layers has 48 pairs: a table too long
  // to read, or to fit a figure one screen tall).
  const int open = mv.open_head();
  std::vector<std::size_t> shown;
  for (std::size_t k = 0; k < c->composition.size(); ++k)
    if (open < 0 || c->composition[k].from == open || c->composition[k].to == open) shown.push_back(k);
  if (open >= 0)
    notice(i18n::format(tr("The pairs %s is in; close the head to see every pair."), head_name(lab, open).c_str()).c_str());
  // Each column as wide as its longest word at least (where the card has room), so that a
  // phone's Spanish headings wrap between words, never inside one. One table per language:
  // ImGui takes a column's weight only when it first lays the table out.
  const std::string table = std::string("composition ") + i18n::code(i18n::language());
  if (ImGui::BeginTable(table.c_str(), r.period ? 4 : 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    const float number_w = ImGui::CalcTextSize("0.00").x;
    table_column_wrapped(tr("earlier → later"), ImGui::CalcTextSize("0.0 → 1.0").x);
    table_column_wrapped(tr("share"), number_w);
    if (r.period) {
      table_column_wrapped(tr("score"), number_w);
      table_column_wrapped(tr("with the earlier off"), number_w);
    }
    table_headers_wrapped();
    for (const std::size_t k : shown) {
      const lm::Composition& pair = c->composition[k];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string label = head_name(lab, pair.from) + " → " + head_name(lab, pair.to);
      if (ImGui::Selectable(label.c_str(), ui.model_composition == int(k), ImGuiSelectableFlags_SpanAllColumns))
        ui.model_composition = int(k);
      ImGui::TableNextColumn();
      ImGui::Text("%d %%", int(std::lround(100 * pair.share)));
      if (r.period) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(text::fixed(r.induction[std::size_t(pair.to)], 2).c_str());
        ImGui::TableNextColumn();  // "…" for the frame before the passes without `from` have run
        ImGui::TextUnformatted(k < r.without.size() ? text::fixed(r.without[k], 2).c_str() : "…");
      }
    }
    ImGui::EndTable();
  }
  if (!with_map || shown.empty()) return;
  const bool listed = std::find(shown.begin(), shown.end(), std::size_t(std::max(0, ui.model_composition))) != shown.end();
  const std::size_t k = listed ? std::size_t(ui.model_composition) : shown.front();
  const lm::Composition& pair = c->composition[k];
  const std::string from = head_name(lab, pair.from), to = head_name(lab, pair.to);
  map(ui, lab, "model composition",
      readable_map(lab, pair.map,
                   i18n::format(by_token(lab) ? tr("%s reading %s: a query token (row) against the token %s read (column)")
                                              : tr("%s reading %s: a query character (row) against the character %s read (column)"),
                                to.c_str(), from.c_str(), from.c_str()),
                   ""));
}

}  // namespace ui::views
