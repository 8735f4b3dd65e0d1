// Everything a person can set in Attention Lab, and its text form: the URL fragment
// (docs/embed.md), e.g. "preset=causal-3x2&step=softmax&query=2".
//
// A fragment is read as "a preset, then overrides": the preset's state is the base and every
// other key changes it. Writing does the reverse and lists only what differs from the base,
// so links stay short. Parsing is pure (no I/O, no globals, never throws) because it reads
// text typed by strangers; bad keys and values are skipped with a note and the rest applies.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention.h"  // attn::ScaleMode, attn::Causal: the state's choices are the kernel's
#include "choices.h"    // the enums of the state's choices and their names; the views' row
#include "config.h"     // train::Config: view=train's settings (limits stated once, in src/train)
#include "i18n.h"       // N_(): the presets' titles are messages
#include "kinds.h"      // practice::QuestionKind: the kinds of question mode=practice asks

namespace lab {

// The walkthrough's steps: step 0 makes Q, K, V from the input (step=input in a link), then
// the five stages of softmax(QKᵀ/√d_k)V, in the order the walkthrough shows them.
enum class Step { input, scores, scale, mask, softmax, output };
// The link's names, which the stepper shows (translated: they are messages too).
template <>
struct Names<Step> {
  static constexpr const char* list[] = {N_("input"), N_("scores"), N_("scale"), N_("mask"), N_("softmax"), N_("output")};
};
inline constexpr int kStepCount = int(count_of<Step>());
const char* step_name(Step step);

// Sizes the interface accepts: big enough to see the O(n²) score matrix, small enough for
// the browser's memory.
struct Limits {
  static constexpr int max_n = 2048;
  static constexpr int max_d = 256;
  static constexpr int max_batch = 8;
  // The walkthrough keeps every intermediate of every sequence (six n_q × n_k matrices each),
  // so a padded batch holds at most this many scores: 8 sequences up to n = 1024, 2 at 2048.
  static constexpr std::uint64_t max_batch_scores = std::uint64_t(1) << 23;
  static constexpr int max_scaling_dk = 512;  // view=scaling sweeps d_k further than the walkthrough
  static constexpr int max_heads = 16;
  static constexpr int max_tile = 64;
  // view=tiling walks at most this many queries: its data holds a partial output per tile,
  // and at n = 256 with one key per tile that is millions of numbers.
  static constexpr int max_tiling_n = 64;
  static constexpr float max_mult = 1024.0f;  // view=gradients' scale multiplier
  // Entries of Q, K, V and the custom scale: wide enough for every lesson, small enough that
  // no score overflows float32 (100·100·512·1000 ≈ 5e9), so nothing on screen turns into NaN.
  static constexpr float max_value = 100.0f;
  static constexpr float max_custom_scale = 1000.0f;
  // view=model's text, in bytes: room for several times the model's context, so a text typed
  // past it stays (the view says how much it reads), small enough for a link.
  static constexpr int max_text_bytes = 2048;
  static constexpr int max_ablate = 64;  // heads a link may switch off
  static constexpr int max_checkpoint = 1000000;  // view=model's training step
};

// One head of loaded data with several (src/model/load.h), as the walkthrough shows one: its
// Q, K, V (batch, n, d) (K and V its K/V head's), its mask as key padding and removed cells,
// and which layer's head it is.
struct LoadedHead {
  std::vector<float> q, k, v;
  std::vector<int> pad;
  std::vector<std::pair<int, int>> blocked;
  int layer = 0, head = 0;
};

// view=model's text until a person types: a probe sentence of data/model/probes.json, never in
// the model's corpus.
inline constexpr const char* kModelText = "The old bakery on the corner opens at seven every morning.";

struct State {
  std::string preset;  // the base this state was derived from ("" = the built-in defaults)
  Step step = Step::scores;
  int query = 0;             // the selected query row
  int batch = 0;             // which sequence of the batch is shown
  View view = View::walkthrough;
  Attention kind = Attention::self;
  int nq = 3, nk = 3, dk = 2, dv = 2;
  std::uint32_t seed = 1;
  attn::ScaleMode scale = attn::ScaleMode::inv_sqrt_dk;
  float custom_scale = 1.0f;
  attn::Causal causal = attn::Causal::none;
  std::vector<int> pad;                         // key lengths, one per sequence (a batch)
  std::vector<std::pair<int, int>> blocked;     // custom mask: (query, key) cells removed
  std::vector<float> q, k, v;                   // typed-in matrices; empty = drawn from seed
  // Data a person loaded (src/model/load.h): what it was ("q.npy, k.npy, v.npy"; "" = none)
  // and its axis labels. Loaded matrices are not written into links (they can be megabytes).
  std::string source;
  std::vector<std::string> query_tokens, key_tokens;  // empty = indices
  // Every head of loaded data with several (every layer's, layer by layer), never changed once
  // loaded, so the states of the history share one copy; q, k, v, pad and blocked above are
  // those of `head`, an index in that list (show_head()).
  std::shared_ptr<const std::vector<LoadedHead>> loaded_heads;
  int head = 0;
  // Self-attention's input. With `project`, X (batch × n × d_model, the tokens' embeddings) and
  // the projections W_Q, W_K (d_model × d_k) and W_V (d_model × d_v), one set for the batch,
  // make Q = X W_Q, K = X W_K, V = X W_V. Without, Q = K = V = X is `q` (d_model = d_k): the
  // lesson's worked example, which skips the projections. Typed-in; empty = drawn from seed.
  bool project = true;
  int dmodel = 4;
  std::vector<float> x, wq, wk, wv;
  Theme theme = Theme::light;
  Language lang = Language::system;
  Density density = Density::full;
  Mode mode = Mode::explore;
  std::vector<practice::QuestionKind> ask;  // mode=practice: the kinds asked in turn (empty: every kind)
  // An embedded figure's parts (figure_parts.h), in the order they are shown; empty: the
  // whole lab. Like theme and mode it is the reader's: a preset keeps it.
  std::vector<std::string> figure;
  // The experiment views' parameters (each view reads its own; the walkthrough none).
  float mult = 1.0f;                  // gradients: the scale is mult / √d_k
  int row = 0;                        // gradients: the query row whose softmax Jacobian is shown
  Pitfall pitfall = Pitfall::no_scaling;  // pitfalls: the mistake shown beside the right result
  int tile = 4;                       // tiling: keys per tile, at most n (queries and keys: n)
  int heads = 4, kv_heads = 2;        // heads: query heads and K/V heads (grouped-query when fewer)
  bool run = false;                   // cost: measure (the measurement starts when this turns on)
  // view=train: the model and task, whether it trains, how many steps a frame runs, and the
  // compared run's one changed setting as "key:value" of the link (e.g. "scale:none"; "": none).
  train::Config train = train::defaults(train::Task::reverse);
  bool play = false;
  int steps_per_frame = 5;
  std::string vs;
  // view=model: the text the trained language model reads (docs/model.md), and its heads
  // switched off, as (layer, head); kept in order, each once. Whether a head exists is the
  // model's to say (its weight file), so the link checks only the form.
  std::string text = kModelText;
  std::vector<std::pair<int, int>> ablate;
  // view=model's head opened large (layer, head), or none; like ablate, checked only in form.
  std::optional<std::pair<int, int>> open_head;
  // view=model's chosen character and the logit split there (lm/circuits.h's Attribution):
  // `at` its position in the text read (-1: the last one); `target` the character whose logit
  // is split ("": the character that comes next in the text); `against` "" or a second
  // character (the split is then of logit[target] − logit[against]: "why e and not a?"). The
  // link checks the form (one character); whether the model knows it is the model's to say.
  int at = -1;
  std::string target, against;
  // view=model's changed letter on a text typed twice: the position in the first copy and the
  // character put there, or none.
  std::optional<std::pair<int, std::string>> edit;
  // view=model's weights: the lab's model, its one-layer twin, or a model opened from its files
  // (docs/your-model.md) under its name (model_name; a link names it but cannot carry its
  // files); and the step of the lab's model's training whose kept weights are shown (0: the
  // trained model; which steps were kept is the model's report's to say, so the link checks
  // only the form).
  LanguageModelChoice model = LanguageModelChoice::lab;
  std::string model_name;  // model == opened: the opened model's name; "" otherwise
  int checkpoint = 0;

  int batches() const { return pad.empty() ? 1 : int(pad.size()); }
  bool projected() const { return kind == Attention::self && project; }
  // Whether the state is a figure (only its parts shown, as tall as they are): the one answer,
  // which the page hears as a figure height above 0 and passes on in its size message
  // (web/page.js, embed.js).
  bool is_figure() const { return !figure.empty(); }
  bool operator==(const State& o) const;
  bool operator!=(const State& o) const { return !(*this == o); }
};

// view=train's limits on steps per frame (the model's own limits are train::validate's).
struct TrainLimits {
  static constexpr int max_steps_per_frame = 100;
};

// The compared run's configuration: s.train with the one setting of s.vs changed. Returns ""
// and sets `out`, or the sentence saying why vs cannot apply (then no compare run).
std::string compare_config(const State& s, train::Config& out);
// A setting of the model as its link key writes it ("none" for scale, "0.02" for init; ""
// for a key that is not the model's): for labels that name the compared runs.
std::string train_setting(const train::Config& c, std::string_view key);

// view=model's weights: `model` (with `name` for one opened from its files), the training step
// back to the trained model's, and what named the earlier model's heads dropped (heads switched
// off, the one opened), and its tokens too (the chosen one, target, against, edit) unless both
// are the lab's (the same characters): another model numbers them otherwise. The text is kept.
void choose_model(State& s, LanguageModelChoice model, std::string name = "");

// The loaded data's head `head` in the walkthrough: its Q, K, V and mask into `s`. False, and
// `s` unchanged, when the data shown has no such head.
bool show_head(State& s, int head);
// How many heads of loaded data `s` holds, in all its layers (1 when it holds one, or none),
// and how many layers.
int loaded_head_count(const State& s);
int loaded_layer_count(const State& s);

// The most sequences the walkthrough keeps at n_q × n_k (every intermediate of each):
// Limits::max_batch, fewer where their scores would pass Limits::max_batch_scores; one at least.
int max_batches(int nq, int nk);

// The sizes normalize() gives a state: d_k within the walkthrough's limit (but in
// view=scaling), self-attention's n_k and d_v tied to Q's, no more sequences than
// max_batches(), d_model in range. The one rule, which normalize() applies and a link's reader
// asks beforehand (which of its typed matrices fit: typed.h's normalized_size).
struct Dims {
  int nq, nk, dk, dv, dmodel, batches;
};
Dims normalized_dims(const State& s);

// Makes a state self-consistent: self-attention ties n_k and d_v to Q, the query and batch
// indices stay in range, typed matrices of the wrong size (or not used: Q with projections,
// X and W without) are dropped. Runs once per change of state, by its one owner: Lab::set_state
// for the app (an edit, a link, a message, loaded data), parse_fragment for a caller without a
// Lab (the tests); a link's reader (read_fragment) and load_request leave it to them.
void normalize(State& s);
// How many times normalize() has run in this process: tests/unit/normalize_once_test.cpp holds
// each path to one per change.
std::uint64_t normalizations();
// Loaded data's other heads belong to it at its shape: forgets them where the data shown is no
// longer theirs (normalize()'s last rule, for typed.h's live normalize, which puts the loaded
// data back after it).
void forget_heads_of_another_shape(State& s);

// A named starting point (docs: presets are URLs). The preset list is data, kept here so
// the parser stays self-contained.
struct Preset {
  const char* name;
  const char* title;  // shown in the interface
  State state;
  std::vector<std::string> query_tokens, key_tokens;  // axis labels; empty = indices
};
const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view name);
// A preset chosen by a reader who sees `shown`: the preset's state, in the reader's theme,
// language, density, mode and figure (a preset is content, never how it is shown).
State preset_for(const Preset& preset, const State& shown);
// Whether `s` still shows the preset's example: none of the keys that make it (the shape, the
// inputs, the seed, the scale and the mask) differs from the preset's. Stepping or picking a
// query keeps the preset; a typed value, another seed or size is an example of one's own.
bool shows_preset(const Preset& preset, const State& s);

struct ParseResult {
  State state;
  // One sentence per ignored key or value, and per number out of range (or out of step with
  // another, as kv_heads that does not divide heads): those are set to the nearest valid value
  // and the sentence names the key, the value given and the value used.
  std::vector<std::string> notes;
};

// A link read but not yet normalised: the state as its keys set it, the notes that need no
// more, and what the others need of the state once normalised (link_notes).
struct LinkReading {
  State state;
  std::vector<std::string> notes;
  // A value the state could not hold as given, and what its note says; the value used is the
  // normalised state's (`used`, or the key's value as a link writes it).
  struct Changed {
    std::string key, given, why, used;
  };
  std::vector<Changed> changed;
  std::size_t sequences;  // pad's sequences as the link gives them (normalize() may keep fewer)
};

// Reads a fragment (with or without the leading '#') over `base`; a `preset` key anywhere
// in it replaces the base first. Never throws. The state is not normalised: the app hands it
// to Lab::set_state (an edit of what is on screen, or a link opened from scratch), then
// link_notes() writes the notes from the state that made.
LinkReading read_fragment(std::string_view fragment, const State& base);
std::vector<std::string> link_notes(const LinkReading& reading, const State& normalized);
// read_fragment, normalize and link_notes, for a caller without a Lab (the tests).
// `live`: a change to what is on screen (the page API), whose typed values survive a new shape
// or seed (typed.h); a link's meaning stays its own.
ParseResult parse_fragment(std::string_view fragment, const State& base, bool live = false);
// The state as a fragment without '#': the preset (if any) and the keys that differ from it,
// or, when `complete`, every key except matrices equal to the preset's (for the page API).
std::string to_fragment(const State& s, bool complete = false);
// The same keys and values, in the same order, unjoined: the page API's getState() object.
std::vector<std::pair<std::string, std::string>> state_pairs(const State& s, bool complete = false);
// Every key parse_fragment reads, sorted: the link's, setState()'s and the element's
// attributes' (docs/embed.md documents each; tests/unit/docs_test.cpp holds them together).
std::vector<std::string> state_keys();

// The table of keys (keys.cpp) says for each whether Lab computes again when it changes (the
// walkthrough's numbers, or what the screen makes from them in the reader's language and
// mode), and which experiment views' data it changes; from it:
// - the state with every other key at its default: states with equal computed parts compute
//   the same trace (Lab computes again only when it changes);
State computed_part(State s);
// - the view's name and the keys its experiment reads, as a link writes them
//   ("tiling&n=12&seed=1&tile=4"): equal texts compute equal data.
std::string experiment_parameters(const State& s);

}  // namespace lab
