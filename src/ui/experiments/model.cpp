// [SECTION] view=model: the trained language model of docs/model.md on the reader's text. The
// text box and "Repeat my text"; the loss at every character, coloured over the text, where a
// click chooses a character; the model's next-character predictions after it; every head at a
// glance and one opened large (model_heads.cpp). Everything shown is ModelView's, computed
// once per change of the text or the ablation.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "i18n.h"
#include "model_parts.h"
#include "number_text.h"
#include "theme.h"
#include "input/item_layout.h"
#include "wrap.h"

namespace ui::views {
namespace {

// The loss a character's colour saturates at, in nats: about twice the lab's model's mean on
// held-out text (1.85), so an ordinary character is pale and a surprise is dark. A model with
// a larger vocabulary (GPT-2's 50,257 tokens: an even guess costs 10.8 nats) saturates at 0.8
// of an even guess's loss instead.
constexpr float kLossScale = 4;
float loss_scale(const lm::LanguageModel& m) { return std::max(kLossScale, 0.8f * std::log(float(m.config.vocab))); }

// The first `count` characters of UTF-8 text (a character starts at every byte that is not a
// continuation byte, as the vocabulary reads it).
std::string first_characters(const std::string& text, int count) {
  std::size_t end = 0;
  for (int seen = 0; end < text.size(); ++end)
    if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80 && seen++ == count) break;
  return text.substr(0, end);
}

// [SECTION] the text box, wrapping: Dear ImGui 1.86's multi-line field breaks lines only at
// '\n', so the box holds the text with a '\n' inserted where each soft line begins
// (text::soft_breaks), put in again on every frame it is edited (the cursor kept on its
// character), and taken out of what it returns. A text with line breaks of its own is shown
// as it is, unwrapped: its breaks could not be told from the box's.
struct WrappedText {
  std::string buffer;
  float width = 0;
  bool wraps = true;
};

std::string soft_wrapped(std::string_view text, float width) {
  std::string out;
  std::size_t from = 0;
  const auto width_of = [](std::string_view piece) { return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x; };
  for (std::size_t at : text::soft_breaks(text, width, width_of)) {
    out.append(text.substr(from, at - from)).push_back('\n');
    from = at;
  }
  return out.append(text.substr(from));
}

std::string without_breaks(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c != '\n') out.push_back(c);
  return out;
}

int wrapped_text_event(ImGuiInputTextCallbackData* data) {
  auto* box = static_cast<WrappedText*>(data->UserData);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    box->buffer.resize(std::size_t(data->BufTextLen));
    data->Buf = box->buffer.data();
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackCharFilter) {
    return box->wraps && data->EventChar == '\n';  // Enter: every '\n' in the box is one it put in
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways && box->wraps) {
    const std::string_view shown(data->Buf, std::size_t(data->BufTextLen));
    const std::string text = without_breaks(shown), wrapped = soft_wrapped(text, box->width);
    if (wrapped == shown) return 0;
    // A byte offset in the box, moved to the same character of the box wrapped again.
    const auto moved = [&](int at) {
      const int character = at - int(std::count(shown.begin(), shown.begin() + at, '\n'));
      int in_wrapped = 0;
      for (int seen = 0; seen < character || (in_wrapped < int(wrapped.size()) && wrapped[std::size_t(in_wrapped)] == '\n');
           ++in_wrapped)
        seen += wrapped[std::size_t(in_wrapped)] != '\n';
      return in_wrapped;
    };
    const int cursor = moved(data->CursorPos), start = moved(data->SelectionStart), end = moved(data->SelectionEnd);
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, wrapped.data(), wrapped.data() + wrapped.size());
    data->CursorPos = cursor;
    data->SelectionStart = start;
    data->SelectionEnd = end;
  }
  return 0;
}

// The text box: true, with `text` its new text, when it was edited. At least two lines tall,
// as tall as the wrapped text up to eight, then scrolling.
bool text_input_wrapped(const char* id, std::string& text) {
  const ImGuiStyle& style = ImGui::GetStyle();
  WrappedText box;
  box.wraps = text.find('\n') == std::string::npos;
  box.width = ImGui::GetContentRegionAvail().x - 2 * style.FramePadding.x - style.ScrollbarSize;
  box.buffer = box.wraps ? soft_wrapped(text, box.width) : text;
  const int lines = std::clamp(int(std::count(box.buffer.begin(), box.buffer.end(), '\n')) + 1, 2, 8);
  const float height = ImGui::GetTextLineHeight() * float(lines) + style.FramePadding.y * 2;
  if (!ImGui::InputTextMultiline(id, box.buffer.data(), box.buffer.capacity() + 1, ImVec2(-1, height),
                                 ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackAlways |
                                     ImGuiInputTextFlags_CallbackCharFilter,
                                 wrapped_text_event, &box))
    return false;
  std::string edited = box.wraps ? without_breaks(box.buffer.c_str()) : std::string(box.buffer.c_str());
  if (edited == text) return false;  // wrapped again only
  text = std::move(edited);
  return true;
}

void intro(const lab::Lab& lab) {
  heading(tr("A trained model"));
  const lm::LanguageModel* m = lab.model().model();
  if (!m) {
    notice(tr("A tiny language model the lab trained on its own English and Spanish text: attention only, one "
              "character at a time."));
    return;
  }
  if (m->family != "lab") {
    notice(i18n::format(tr("A model you opened from its files: %s. Type your own text: every head's map shows, for "
                           "each token (a row), how much it looks at each token before it (a column)."),
                        m->name.c_str())
               .c_str());
    return;
  }
  const std::string layers = m->config.layers == 1 ? std::string(tr("one layer"))
                                                   : i18n::format(tr("%d layers"), m->config.layers);
  notice(i18n::format(tr("A tiny language model the lab trained on its own English and Spanish text: %s of %d "
                         "attention heads and nothing else, reading up to %d characters and predicting each next one. "
                         "Type your own text: every head's map shows, for each character (a row), how much it looks "
                         "at each character before it (a column)."),
                      layers.c_str(), m->config.heads, m->context())
             .c_str());
}

// The text box, "Repeat my text", "Every head on", and what the model made of the text.
void text_box(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::State& s = lab.state();
  const lab::ModelView& mv = lab.model();
  std::string edit = s.text;
  ImGui::TextUnformatted(tr("Your text"));
  input::next_item(input::ItemKind::text, tr("Your text"));
  if (text_input_wrapped("##model text", edit)) {
    next.text = edit;
    next.at = -1;  // the chosen character and the changed letter were the old text's
    next.edit.reset();
  }
  const lm::LanguageModel* m = mv.model();
  if (m && ImGui::Button(tr("Repeat my text"))) {
    // text + " " + text within the context: each copy at most (context − 1) / 2 characters.
    const std::string once = first_characters(s.text, (m->context() - 1) / 2);
    next.text = once + " " + once;
    next.at = -1;
    next.edit.reset();
  }
  if (!s.ablate.empty()) {
    ImGui::SameLine();
    if (ImGui::Button(tr("Every head on"))) next.ablate.clear();
  }
  if (mv.status() == lab::ModelView::Status::loading) {
    notice(tr("Loading the model's weights…"));
    return;
  }
  if (mv.status() == lab::ModelView::Status::failed) {
    note(i18n::format(tr("The model could not be loaded: %s. The rest of the lab works without it."),
                      mv.error().c_str()));
    return;
  }
  const lab::ModelView::Result& r = mv.result();
  if (r.characters > m->context())
    note(i18n::format(by_token(lab) ? tr("Your text has %d tokens; the model reads at most %d, so what follows is about "
                                         "the first %d. Your text is kept as typed.")
                                    : tr("Your text has %d characters; the model reads at most %d, so what follows is "
                                         "about the first %d. Your text is kept as typed."),
                      r.characters, m->context(), m->context()));
  if (r.unknown > 0)
    note(i18n::format(tr("%d of the characters are ones the model never learned (an emoji, a control character, "
                         "an accent outside its corpus): each reads as one unknown character, shown as �."),
                      r.unknown));
  if (const std::string e = mv.ablate_error(); !e.empty()) note(e);
  if (!mv.report_error().empty())
    note(i18n::format(tr("The heads' measured scores are missing (%s): the heads are shown without labels."),
                      mv.report_error().c_str()));
  if (r.tokens.empty()) notice(tr("Type a text to see what the model does with it."));
}

// The loss at each character over the text; a click chooses the character. Under it the mean
// loss (each copy's, on a text typed twice) and a switch for every head, beside the numbers
// they change.
void loss_strip(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const lab::ModelView::Result& r = lab.model().result();
  if (r.tokens.empty()) return;
  heading(tr("How surprised the model was"));
  const bool tokens = by_token(lab);
  notice(tokens ? tr("Each token (the tokenizer's pieces of your text; ␣ a space) is coloured by the model's loss on "
                     "it, −log p of that token given the ones before it (the stronger the colour, the more surprised; "
                     "the first has nothing before it). Click or tap a token to choose it.")
                : tr("Each character is coloured by the model's loss on it, −log p of that character given the ones "
                     "before it (the stronger the colour, the more surprised; the first has nothing before it). Click "
                     "or tap a character to choose it."));
  const int clicked = text_strip("loss", r.tokens, [&](int i) {
    return i == 0 ? -1.0f : std::min(1.0f, float(r.analysis.loss[std::size_t(i - 1)]) / loss_scale(*lab.model().model()));
  }, chosen_character(lab));
  if (clicked >= 0) next.at = clicked == chosen_character(lab) ? -1 : clicked;
  std::string mean = i18n::format(tokens ? tr("Mean loss: %s nats a token.") : tr("Mean loss: %s nats a character."),
                                  r.analysis.loss.empty() ? "—" : text::fixed(r.analysis.mean_loss(), 2).c_str());
  if (r.copy)
    mean += " " + i18n::format(tokens ? tr("Typed twice: %s on the first copy, %s on the second (each copy's first "
                                           "token left out).")
                                      : tr("Typed twice: %s on the first copy, %s on the second (each copy's first "
                                           "character left out)."),
                               text::fixed(r.copy->first, 2).c_str(), text::fixed(r.copy->second, 2).c_str());
  text_wrapped(mean);
  head_switches(lab, next);
}

// The model's next-character predictions after the chosen character (the last, by default).
void predictions(const lab::Lab& lab) {
  const lab::ModelView& mv = lab.model();
  const lab::ModelView::Result& r = mv.result();
  if (r.tokens.empty()) return;
  const int n = int(r.tokens.size());
  const int at = chosen_character(lab) >= 0 ? chosen_character(lab) : n - 1;
  heading(i18n::format(by_token(lab) ? tr("What comes after token %d, \"%s\"") : tr("What comes after character %d, \"%s\""),
                       at, shown(r.tokens[std::size_t(at)]).c_str())
              .c_str());
  const float scale = ui_scale();
  const Palette& p = palette();
  // The bars start past the widest of the five (a BPE token may be a whole word).
  const std::vector<lab::ModelView::Prediction> guesses = mv.top(at, 5);
  float widest = 0;
  ImGui::PushFont(fonts().mono);
  for (const lab::ModelView::Prediction& guess : guesses)
    widest = std::max(widest, ImGui::CalcTextSize(shown(mv.model()->vocab.text(guess.token)).c_str()).x);
  ImGui::PopFont();
  const float bars_at = std::max(3 * ImGui::GetFontSize(), ImGui::GetCursorPosX() + widest + ImGui::GetStyle().ItemSpacing.x);
  // The bar in what is left beside the label and its "p = 0.000" (a phone's column is narrow).
  const float left = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - bars_at -
                     ImGui::CalcTextSize("p = 0.000").x - ImGui::GetStyle().ItemSpacing.x;
  const float bar_max = std::max(24 * scale, std::min({ImGui::GetContentRegionAvail().x * 0.5f, 240 * scale, left}));
  for (const lab::ModelView::Prediction& guess : guesses) {
    const std::string& token = mv.model()->vocab.text(guess.token);
    ImGui::PushFont(fonts().mono);
    ImGui::TextUnformatted(shown(token).c_str());
    ImGui::PopFont();
    ImGui::SameLine(bars_at);
    const ImVec2 at_bar = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    // The bar inside its track, p = 0 to 1: the track's end, next to the number, is certainty.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRect(at_bar, ImVec2(at_bar.x + bar_max, at_bar.y + h), ImGui::ColorConvertFloat4ToU32(p.card_border));
    draw->AddRectFilled(at_bar, ImVec2(at_bar.x + bar_max * float(guess.p), at_bar.y + h),
                        ImGui::ColorConvertFloat4ToU32(p.accent));
    ImGui::Dummy(ImVec2(bar_max, h));
    ImGui::SameLine();
    ImGui::Text("p = %s", text::fixed(guess.p, 3).c_str());
  }
  if (at + 1 < n)
    notice(i18n::format(tr("Your text has \"%s\" next: the model gave it p = %s (loss %s nats)."),
                        r.tokens[std::size_t(at + 1)].c_str(),
                        text::fixed(std::exp(-r.analysis.loss[std::size_t(at)]), 3).c_str(),
                        text::fixed(r.analysis.loss[std::size_t(at)], 2).c_str())
               .c_str());
}

}  // namespace

int text_strip(const char* id, const std::vector<std::string>& tokens, const std::function<float(int)>& strength,
               int chosen) {
  ImGui::PushID(id);
  ImGui::PushFont(fonts().mono);
  const float pad = 6 * ui_scale(), cell = ImGui::CalcTextSize("M").x + pad;
  const float line = ImGui::GetTextLineHeight() + 6 * ui_scale();
  const float width = std::max(cell, ImGui::GetContentRegionAvail().x);
  // Each token's cell, as wide as its text (a character's: one cell), the lines filled in turn.
  std::vector<std::string> labels;
  std::vector<ImVec4> cells;  // x, y, width, line index
  float x = 0, widest = 0;
  int lines = 1;
  for (const std::string& t : tokens) {
    labels.push_back(shown(t));
    const float w = std::max(cell, ImGui::CalcTextSize(labels.back().c_str()).x + pad);
    if (x > 0 && x + w > width) x = 0, ++lines;
    cells.push_back(ImVec4(x, float(lines - 1) * line, w, float(lines - 1)));
    x += w;
    widest = std::max(widest, x);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  input::next_item(input::ItemKind::heatmap, id);
  ImGui::InvisibleButton("strip", ImVec2(std::max(cell, widest), float(lines) * line));
  {  // its lines of tokens, as layout() reports a heatmap's row labels
    std::vector<std::string> shown_lines(static_cast<std::size_t>(lines));
    for (std::size_t i = 0; i < labels.size(); ++i) shown_lines[std::size_t(cells[i].w)] += labels[i];
    input::describe_heatmap(ImGui::GetID("strip"), 0, shown_lines, {});
  }
  int clicked = -1;
  if (ImGui::IsItemClicked()) {
    const ImVec2 m(ImGui::GetIO().MousePos.x - origin.x, ImGui::GetIO().MousePos.y - origin.y);
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (m.x >= cells[i].x && m.x < cells[i].x + cells[i].z && m.y >= cells[i].y && m.y < cells[i].y + line) clicked = int(i);
  }
  const Palette& p = palette();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int i = 0; i < int(tokens.size()); ++i) {
    const ImVec4& c = cells[std::size_t(i)];
    const ImVec2 a(origin.x + c.x, origin.y + c.y);
    const ImVec2 b(a.x + c.z - 1, a.y + line - 1);
    const float v = strength(i);
    if (v >= 0) {
      ImVec4 fill = p.accent;
      fill.w = 0.08f + 0.92f * v;
      draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(fill));
    }
    const char* label = labels[std::size_t(i)].c_str();
    // Dark cells take light text.
    const ImU32 ink = v > 0.55f ? IM_COL32(255, 255, 255, 255) : text;
    const ImVec2 size = ImGui::CalcTextSize(label);
    draw->AddText(ImVec2(a.x + (c.z - size.x) / 2, a.y + (line - size.y) / 2), ink, label);
    if (i == chosen) draw->AddRect(a, b, ImGui::ColorConvertFloat4ToU32(p.accent), 0, 0, 2 * ui_scale());
  }
  ImGui::PopFont();
  ImGui::PopID();
  return clicked;
}

bool by_token(const lab::Lab& lab) {
  const lm::LanguageModel* m = lab.model().model();
  return m && m->vocab.bpe();
}

std::string shown(const std::string& token) {
  // A BPE token's leading space is part of it (" the"): every space and line break is drawn.
  std::string out;
  for (const char c : token) out += c == ' ' ? "␣" : c == '\n' ? "↵" : c == '\t' ? "⇥" : std::string(1, c);
  return out;
}

void note(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette().accent);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

std::string head_name(int layer, int head) { return std::to_string(layer) + "." + std::to_string(head); }

int chosen_character(const lab::Lab& lab) {
  const int at = lab.state().at, n = int(lab.model().result().tokens.size());
  return at >= 0 && at < n ? at : -1;
}

void model(const lab::Lab& lab, lab::State& next, Memory& ui) {
  const bool ready = !lab.model().result().tokens.empty();
  sections(lab, ui,
           {{"intro", [&] { intro(lab); }},
            {"weights", [&] { model_weights(lab, next, ui, true); }},
            {"learning", [&] { model_weights(lab, next, ui, false); }, true},  // the slider alone, for a figure
            {"text", [&] { text_box(lab, next, ui); }},
            {"loss", [&] { if (ready) loss_strip(lab, next, ui); }},
            {"predictions", [&] { if (ready) predictions(lab); }},
            {"why", [&] { if (ready) attribution(lab, next); }},
            {"edit", [&] { if (ready) change_a_letter(lab, next); }},
            {"heads", [&] { if (ready) model_heads(lab, next, ui); }},
            {"head", [&] { if (ready) model_head(lab, next, ui); }},
            {"circuit", [&] { if (ready) head_circuits(lab, ui, lab.model().open_head()); }},
            // The circuit's three pieces, for figures one screen tall (each map alone is nearly one).
            {"ov", [&] { if (ready) head_ov(lab, ui, lab.model().open_head()); }, true},
            {"qk", [&] { if (ready) head_qk(lab, ui, lab.model().open_head()); }, true},
            {"positions", [&] { if (ready) head_positions(lab, lab.model().open_head()); }, true},
            {"composition", [&] { if (ready) composition(lab, ui, true); }},
            {"pairs", [&] { if (ready) composition(lab, ui, false); }, true}});
}

}  // namespace ui::views
