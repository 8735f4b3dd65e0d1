// view=model's parts shared between its files: model.cpp (the text, the loss over it, the
// predictions), model_heads.cpp (every head at a glance, one head opened large) and
// model_why.cpp (the circuits: attribution, OV and QK, composition, a changed letter).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common.h"

namespace ui::views {

// The text as a row of character cells that wraps at the card's width, each cell's background
// as strong as `strength(i)` (0 … 1; negative: no colour), the chosen one ringed. Returns the
// cell clicked or tapped, or -1.
int text_strip(const char* id, const std::vector<std::string>& tokens, const std::function<float(int)>& strength,
               int chosen);

// Whether the model shown reads tokens of several characters (GPT-2's BPE): the view then says
// "token" where it says "character" for a character model.
bool by_token(const lab::Lab& lab);

// A token as a cell shows it: each space as "␣", a line break as "↵", a tab as "⇥", the rest as it is.
std::string shown(const std::string& token);

// A sentence the reader must act on (a bad key, an unreadable text), in the accent colour.
void note(const std::string& text);

// "1.2": a head by its layer and number, as ablate= and head= write it.
std::string head_name(int layer, int head);
// "1.2" of a head's index (layer × heads + head).
std::string head_name(const lab::Lab& lab, int index);

// The state's chosen character (at=) when the text read has it, else -1.
int chosen_character(const lab::Lab& lab);

// Whether the state switches head layer.head off; switching it the other way in `next`.
bool switched_off(const lab::State& s, int layer, int head);
void toggle(lab::State& next, int layer, int head);
// "Heads on:" and a switch for each head, on as many lines as the card's width needs.
void head_switches(const lab::Lab& lab, lab::State& next);

// model_weights.cpp: the lab's model or its one-layer twin (`with_choice`: a figure's `steps`
// has the slider alone), and the slider over its training.
void model_weights(const lab::Lab& lab, lab::State& next, Memory& ui, bool with_choice);
void model_heads(const lab::Lab& lab, lab::State& next, Memory& ui);
void model_head(const lab::Lab& lab, lab::State& next, Memory& ui);
// model_why.cpp: the chosen character's logit split into its parts; "change a letter" on a text
// typed twice; the opened head's OV and QK maps (all three, or each alone for a figure one screen
// tall); how the layers' heads compose.
void attribution(const lab::Lab& lab, lab::State& next);
void change_a_letter(const lab::Lab& lab, lab::State& next);
void head_circuits(const lab::Lab& lab, Memory& ui, int head);
void head_ov(const lab::Lab& lab, Memory& ui, int head);
void head_qk(const lab::Lab& lab, Memory& ui, int head);
void head_positions(const lab::Lab& lab, int head);
// `with_map`: the chosen pair's character map under the table (a figure's `pairs` has the table only).
void composition(const lab::Lab& lab, Memory& ui, bool with_map);

}  // namespace ui::views
