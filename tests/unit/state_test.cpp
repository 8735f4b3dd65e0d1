// The URL-fragment state: presets as bases, overrides, round trips, and bad input that is
// ignored with a note instead of breaking the page.
#include <gtest/gtest.h>

#include <algorithm>

#include "figure_parts.h"
#include "i18n.h"
#include "practice.h"  // kind_name(): the names `ask` reads
#include "state.h"

namespace {

lab::State defaults() { return lab::presets().front().state; }

// state_keys() is what the parser reads: each of its keys is read (a bad value is refused for
// its value, never as an unknown key), and a key outside it is unknown.
TEST(StateFragment, StateKeysAreTheKeysTheParserReads) {
  const auto unknown = [](const std::string& key) {
    for (const std::string& note : lab::parse_fragment(key + "=%01", defaults()).notes)
      if (note.find("unknown key") != std::string::npos) return true;
    return false;
  };
  const std::vector<std::string> keys = lab::state_keys();
  EXPECT_GT(keys.size(), 40u);
  for (const std::string& key : keys) EXPECT_FALSE(unknown(key)) << key;
  for (const char* key : {"stepp", "Q", "d_k", "lr2", ""}) EXPECT_TRUE(unknown(key)) << key;
}

// Every key a link may carry, set away from the preset's value: the link written from the
// state holds that key=value, and reading either form of the link back gives the same state.
// The cases are this test's own list, so a key added to the state without one here fails.
TEST(StateFragment, EveryKeyRoundTripsThroughALink) {
  struct Case {
    const char* key;
    const char* link;     // sets the key, with what it needs (cross-attention for nk, …)
    const char* written;  // the key=value the state's link must hold
  };
  const Case cases[] = {
      {"preset", "preset=cross", "preset=cross"},
      {"attn", "attn=cross", "attn=cross"},
      {"n", "n=5", "n=5"},
      {"nq", "attn=cross&nq=5", "nq=5"},
      {"nk", "attn=cross&nk=5", "nk=5"},
      {"dk", "dk=3", "dk=3"},
      {"proj", "proj=1", "proj=1"},
      {"dmodel", "proj=1&dmodel=6", "dmodel=6"},
      {"dv", "attn=cross&dv=5", "dv=5"},
      {"seed", "seed=7", "seed=7"},
      {"scale", "scale=0.25", "scale=0.25"},
      {"causal", "causal=br", "causal=br"},
      {"pad", "pad=2", "pad=2"},
      {"block", "block=0:1,2:0", "block=0:1,2:0"},
      {"q", "q=1,2,3,4,5,6.5", "q=1,2,3,4,5,6.5"},
      {"k", "attn=cross&k=1,2,3,4,5,-6", "k=1,2,3,4,5,-6"},
      {"v", "attn=cross&v=0.5,2,3,4,5,6", "v=0.5,2,3,4,5,6"},
      {"x", "proj=1&x=1,2,3,4,5,6,7,8,9,0.5,1.5,2.5", "x=1,2,3,4,5,6,7,8,9,0.5,1.5,2.5"},
      {"wq", "proj=1&wq=1,2,3,4,5,6,7,8", "wq=1,2,3,4,5,6,7,8"},
      {"wk", "proj=1&wk=1,2,3,4,5,6,7,8", "wk=1,2,3,4,5,6,7,8"},
      {"wv", "proj=1&wv=1,2,3,4,5,6,7,8", "wv=1,2,3,4,5,6,7,8"},
      {"step", "step=mask", "step=mask"},
      {"query", "query=1", "query=1"},
      {"batch", "pad=3,2&batch=1", "batch=1"},
      {"view", "view=gradients", "view=gradients"},
      {"theme", "theme=dark", "theme=dark"},
      {"lang", "lang=es", "lang=es"},
      {"ui", "ui=compact", "ui=compact"},
      {"mode", "mode=practice", "mode=practice"},
      {"figure", "figure=softmax,arithmetic", "figure=softmax,arithmetic"},
      {"ask", "ask=spread,largest_weight", "ask=spread,largest_weight"},
      {"mult", "mult=2.5", "mult=2.5"},
      {"row", "row=3", "row=3"},
      {"pitfall", "pitfall=fill_zero", "pitfall=fill_zero"},
      {"tile", "tile=2", "tile=2"},
      {"heads", "heads=8", "heads=8"},
      {"kvheads", "kvheads=1", "kvheads=1"},
      {"run", "run=1", "run=1"},
      {"task", "task=sort", "task=sort"},
      {"layers", "layers=2", "layers=2"},
      {"seq", "seq=6", "seq=6"},
      {"vocab", "vocab=20", "vocab=20"},
      {"pos", "pos=sinusoidal", "pos=sinusoidal"},
      {"init", "init=0.5", "init=0.5"},
      {"pinit", "pinit=0.1", "pinit=0.1"},
      {"lr", "lr=0.01", "lr=0.01"},
      {"play", "play=1", "play=1"},
      {"spf", "spf=9", "spf=9"},
      {"vs", "vs=scale:none", "vs=scale:none"},
      // A text's spaces, & and # are escaped in the link, and read back either way.
      {"text", "text=a%20b%26c%23d%25", "text=a%20b%26c%23d%25"},
      {"ablate", "ablate=1.2,0.3", "ablate=0.3,1.2"},
      {"at", "at=5", "at=5"},
      {"target", "target=%C3%B1", "target=%C3%B1"},
      {"against", "against=e", "against=e"},
      {"edit", "edit=4:c", "edit=4:c"},
      {"model", "model=one-layer", "model=one-layer"},
      {"checkpoint", "checkpoint=1500", "checkpoint=1500"},
  };
  std::vector<std::string> listed{"head"};  // view=model's open head and loaded data's shown head: below
  for (const Case& c : cases) {
    listed.push_back(c.key);
    const auto r = lab::parse_fragment(c.link, defaults());
    EXPECT_TRUE(r.notes.empty()) << c.link << ": " << (r.notes.empty() ? "" : r.notes[0]);
    const std::string text = lab::to_fragment(r.state);
    EXPECT_NE(("&" + text + "&").find(std::string("&") + c.written + "&"), std::string::npos) << c.key << ": " << text;
    for (bool complete : {false, true}) {
      const auto back = lab::parse_fragment(lab::to_fragment(r.state, complete), defaults());
      EXPECT_TRUE(back.notes.empty()) << c.key << " " << complete;
      EXPECT_EQ(back.state, r.state) << c.key << ": " << lab::to_fragment(r.state, complete);
    }
  }
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, lab::state_keys()) << "a key without a case here, or a case for a key the parser does not read";
  // A link cannot carry loaded data, so head is refused without it, and the rest applies.
  const auto head = lab::parse_fragment("head=1&query=1", defaults());
  ASSERT_EQ(head.notes.size(), 1u);
  EXPECT_NE(head.notes[0].find("loaded data with several heads"), std::string::npos) << head.notes[0];
  EXPECT_EQ(head.state.query, 1);
}

// [model] head=layer.head opens view=model's head: it round-trips through a link (plain and
// complete) and the page API's pairs; a value not of that form is a note naming the key and the
// value, and the rest applies; an empty value closes it.
TEST(StateModel, OpenHeadThroughALink) {
  const auto r = lab::parse_fragment("view=model&head=1.2", defaults());
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();
  ASSERT_TRUE(r.state.open_head.has_value());
  EXPECT_EQ(*r.state.open_head, (std::pair{1, 2}));
  EXPECT_NE(("&" + lab::to_fragment(r.state) + "&").find("&head=1.2&"), std::string::npos) << lab::to_fragment(r.state);
  for (bool complete : {false, true}) {
    const auto back = lab::parse_fragment(lab::to_fragment(r.state, complete), defaults());
    EXPECT_TRUE(back.notes.empty()) << complete;
    EXPECT_EQ(back.state, r.state) << lab::to_fragment(r.state, complete);
  }
  const auto pairs = lab::state_pairs(r.state, true);
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), std::pair<std::string, std::string>{"head", "1.2"}), pairs.end());
  // The key's order in a link does not matter: head before view reads the same.
  EXPECT_EQ(lab::parse_fragment("head=1.2&view=model", defaults()).state, r.state);
  for (const char* bad : {"1.x", "1.2.3", ".2", "1.99"}) {
    const auto b = lab::parse_fragment(std::string("view=model&head=") + bad + "&query=1", defaults());
    ASSERT_EQ(b.notes.size(), 1u) << bad;
    EXPECT_NE(b.notes[0].find(std::string("head=") + bad + ": expected a head of view=model as layer.head"),
              std::string::npos) << b.notes[0];
    EXPECT_FALSE(b.state.open_head.has_value()) << bad;
    EXPECT_EQ(b.state.query, 1);
  }
  const auto closed = lab::parse_fragment("head=", r.state, true);
  EXPECT_TRUE(closed.notes.empty());
  EXPECT_FALSE(closed.state.open_head.has_value());
  EXPECT_EQ(lab::to_fragment(closed.state).find("head="), std::string::npos);
}

// [model] view=model's text keeps every character through a link; a bad ablate= is a note
// naming the key and the value, and the rest of the link applies.
TEST(StateModel, TextAndAblateThroughALink) {
  lab::State s = defaults();
  s.view = lab::View::model;
  s.text = "¿Qué? 😀 a&b=c#d%e+f\n";
  const auto back = lab::parse_fragment(lab::to_fragment(s), defaults());
  EXPECT_TRUE(back.notes.empty());
  EXPECT_EQ(back.state.text, s.text);
  const auto bad = lab::parse_fragment("view=model&ablate=1.x&query=1", defaults());
  ASSERT_EQ(bad.notes.size(), 1u);
  EXPECT_NE(bad.notes[0].find("ablate=1.x"), std::string::npos) << bad.notes[0];
  EXPECT_TRUE(bad.state.ablate.empty());
  EXPECT_EQ(bad.state.query, 1);
}

// [figure] An embedded figure's parts: the final view's, in the link's order, each once.
TEST(StateFigure, PartsAreTheViewsInTheLinksOrder) {
  const auto r = lab::parse_fragment("figure=arithmetic,softmax,arithmetic,&step=softmax", defaults());
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();
  EXPECT_EQ(r.state.figure, (std::vector<std::string>{"arithmetic", "softmax"}));
  EXPECT_EQ(lab::to_fragment(r.state), "preset=causal-3x2&step=softmax&figure=arithmetic,softmax");
  // Empty: the whole lab, and a link without the key.
  const auto whole = lab::parse_fragment("figure=", r.state, true);
  EXPECT_TRUE(whole.state.figure.empty());
  EXPECT_EQ(lab::to_fragment(whole.state).find("figure"), std::string::npos);
}

// The view decides which parts exist, wherever `view` stands in the link.
TEST(StateFigure, TheFinalViewsPartsWhereverTheViewIsWritten) {
  for (const char* link : {"figure=controls,histograms&view=scaling", "view=scaling&figure=controls,histograms"}) {
    const auto r = lab::parse_fragment(link, defaults());
    EXPECT_TRUE(r.notes.empty()) << link << ": " << r.notes.front();
    EXPECT_EQ(r.state.figure, (std::vector<std::string>{"controls", "histograms"})) << link;
  }
  // Every view has its header, an experiment its whole body, and no view another's cards.
  for (const lab::ViewRow& v : lab::kViews) {
    EXPECT_TRUE(lab::is_figure_part(v.view, "header")) << v.name;
    EXPECT_EQ(lab::is_figure_part(v.view, "view"), v.view != lab::View::walkthrough) << v.name;
  }
  EXPECT_FALSE(lab::is_figure_part(lab::View::scaling, "softmax"));
  EXPECT_FALSE(lab::is_figure_part(lab::View::walkthrough, "histograms"));
  EXPECT_TRUE(lab::is_figure_part(lab::View::walkthrough, "scale-control"));
}

// A part the view does not have (a misspelling, another view's) is ignored with one note that
// names it and the view's parts; the rest of the figure applies.
TEST(StateFigure, UnknownPartsAreIgnoredWithANoteNamingThem) {
  const auto r = lab::parse_fragment("figure=softmax,sofmax,histograms,arithmetic&query=1", defaults());
  EXPECT_EQ(r.state.figure, (std::vector<std::string>{"softmax", "arithmetic"}));
  EXPECT_EQ(r.state.query, 1);
  ASSERT_EQ(r.notes.size(), 1u);
  std::string parts;
  for (std::string_view p : lab::figure_parts(lab::View::walkthrough)) parts += std::string(parts.empty() ? "" : ", ") + std::string(p);
  parts.replace(parts.rfind(", "), 2, " or ");
  EXPECT_EQ(r.notes[0], "ignored figure=sofmax,histograms: view=walkthrough has no such part (its parts are " + parts + ")");
  // In the reader's language.
  i18n::set_language(i18n::Lang::es);
  const auto es = lab::parse_fragment("view=cost&figure=plots,softmax", defaults());
  i18n::set_language(i18n::Lang::en);
  ASSERT_EQ(es.notes.size(), 1u);
  EXPECT_EQ(es.notes[0].rfind("se ignora figure=softmax: view=cost no tiene esa parte (sus partes son header, view,", 0), 0u)
      << es.notes[0];
  EXPECT_EQ(es.state.figure, (std::vector<std::string>{"plots"}));
}

// A value that is no list of part names is refused whole: too many names, or a name too long
// to be one (it would be echoed in a note).
TEST(StateFigure, ValuesThatAreNoFigureAreRefused) {
  std::string many = "softmax";
  for (int i = 0; i < 16; ++i) many += ",arithmetic";
  const std::string long_name(40, 'a');
  for (const std::string& value : {many, long_name}) {
    const auto r = lab::parse_fragment("figure=" + value + "&step=mask", defaults());
    ASSERT_EQ(r.notes.size(), 1u) << value;
    EXPECT_NE(r.notes[0].find("expected at most 16 part names separated by commas"), std::string::npos) << r.notes[0];
    EXPECT_TRUE(r.state.figure.empty());
    EXPECT_EQ(r.state.step, lab::Step::mask);
  }
}

// A figure is how the state is shown: a preset (a link's, the inputs' menu, setState) keeps
// it, as it keeps the theme; a new view keeps the parts it has.
TEST(StateFigure, APresetKeepsTheFigureAndANewViewItsParts) {
  const lab::State figure = lab::parse_fragment("figure=header,softmax&theme=dark", defaults()).state;
  const auto r = lab::parse_fragment("preset=random", figure, true);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.state.preset, "random");
  EXPECT_EQ(r.state.figure, figure.figure);
  EXPECT_EQ(lab::preset_for(*lab::find_preset("cross"), figure).figure, figure.figure);
  EXPECT_EQ(lab::preset_for(*lab::find_preset("cross"), figure).theme, lab::Theme::dark);
  const auto moved = lab::parse_fragment("view=scaling", figure, true);
  EXPECT_EQ(moved.state.figure, (std::vector<std::string>{"header"}));
  ASSERT_EQ(moved.notes.size(), 1u);
  EXPECT_EQ(moved.notes[0].rfind("ignored figure=softmax: view=scaling has no such part", 0), 0u) << moved.notes[0];
}

// The note on a fitted value is in the reader's language, whichever view fitted it.
TEST(StateFragment, FittedValuesAreNotedInTheLanguageShown) {
  i18n::set_language(i18n::Lang::es);
  const auto r = lab::parse_fragment("view=heads&heads=3&kvheads=2", defaults());
  i18n::set_language(i18n::Lang::en);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "kvheads=2 no divide heads=3, así que se usa kvheads=1") << r.notes[0];
}

TEST(StateFragment, PresetIsTheBaseAndKeysOverrideIt) {
  const auto r = lab::parse_fragment("#step=softmax&preset=random&query=4", defaults());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.state.preset, "random");
  EXPECT_EQ(r.state.step, lab::Step::softmax);
  EXPECT_EQ(r.state.query, 4);
  EXPECT_EQ(r.state.nq, 6);
  EXPECT_EQ(r.state.dk, 8);
}

TEST(StateFragment, EveryPresetRoundTrips) {
  for (const lab::Preset& p : lab::presets()) {
    const std::string text = lab::to_fragment(p.state);
    EXPECT_EQ(text, std::string("preset=") + p.name);
    const auto r = lab::parse_fragment(text, defaults());
    EXPECT_TRUE(r.notes.empty()) << p.name;
    EXPECT_EQ(r.state, p.state) << p.name;
  }
}

// The example menu names a preset only while its example is shown (a link drawing a cross
// example of its own on the default preset's base read "Causal, 3 tokens (lesson)").
TEST(StatePreset, APresetIsShownUntilItsExampleChanges) {
  const lab::Preset& causal = *lab::find_preset("causal-3x2");
  EXPECT_TRUE(lab::shows_preset(causal, lab::parse_fragment("preset=causal-3x2&step=softmax&query=1", defaults()).state));
  for (const char* link : {"attn=cross&nq=3&nk=4&dk=2&dv=3&seed=7&causal=0", "n=4", "causal=0", "scale=none",
                           "q=1,0,2,0,3,1", "proj=1"}) {
    const lab::State s = lab::parse_fragment(link, causal.state).state;
    EXPECT_EQ(s.preset, "causal-3x2") << link;
    EXPECT_FALSE(lab::shows_preset(causal, s)) << link;
  }
  for (const lab::Preset& p : lab::presets()) EXPECT_TRUE(lab::shows_preset(p, p.state)) << p.name;
}

TEST(StateFragment, EditedStateRoundTripsExactly) {
  lab::State s = lab::find_preset("cross")->state;
  s.step = lab::Step::mask;
  s.query = 3;
  s.nk = 5;
  s.scale = attn::ScaleMode::custom;
  s.custom_scale = 0.1f;
  s.causal = attn::Causal::bottom_right;
  s.blocked = {{0, 1}, {2, 4}};
  s.pad = {5, 2};
  s.q.assign(std::size_t(2) * s.nq * s.dk, 0.3f);
  s.q[5] = -1.25f;
  s.theme = lab::Theme::dark;
  lab::normalize(s);
  const std::string text = lab::to_fragment(s);
  const auto r = lab::parse_fragment(text, defaults());
  EXPECT_TRUE(r.notes.empty()) << text;
  EXPECT_EQ(r.state, s) << text;
  // The complete form reads back the same too.
  EXPECT_EQ(lab::parse_fragment(lab::to_fragment(s, true), defaults()).state, s);
}

TEST(StateFragment, BadKeysAndValuesAreIgnoredWithANote) {
  const auto r = lab::parse_fragment(
      "preset=causal-3x2&step=sideways&query=top&n=1.5&dk=abc&scale=nan&colour=red&theme=dark&justtext&q=1,2",
      defaults());
  EXPECT_EQ(r.notes.size(), 8u);
  for (const std::string& note : r.notes) EXPECT_NE(note.find("ignored"), std::string::npos) << note;
  const lab::State& s = r.state;
  EXPECT_EQ(s.step, lab::find_preset("causal-3x2")->state.step);
  EXPECT_EQ(s.nq, 3);
  EXPECT_EQ(s.dk, 2);
  EXPECT_EQ(s.scale, attn::ScaleMode::inv_sqrt_dk);
  EXPECT_EQ(s.theme, lab::Theme::dark);  // the good key still applies
  EXPECT_EQ(s.q, lab::find_preset("causal-3x2")->state.q);
}

// `ask` names practice's kinds (kind_name()'s spelling), in the order given; empty asks them
// all; anything else is refused whole with a note naming the key and every kind.
TEST(StateFragment, AskNamesPracticeKinds) {
  for (int k = 0; k < practice::question_kind_count(); ++k) {
    const char* name = practice::kind_name(practice::QuestionKind(k));
    const auto r = lab::parse_fragment(std::string("ask=") + name, defaults());
    EXPECT_TRUE(r.notes.empty()) << name;
    EXPECT_EQ(r.state.ask, std::vector{practice::QuestionKind(k)}) << name;
  }
  const auto two = lab::parse_fragment("mode=practice&ask=weight,spread", defaults());
  EXPECT_EQ(two.state.ask, (std::vector{practice::QuestionKind::weight, practice::QuestionKind::spread}));
  EXPECT_TRUE(lab::parse_fragment("ask=", two.state).state.ask.empty());
  // A preset is content: the questions asked stay, as the mode does.
  EXPECT_EQ(lab::parse_fragment("preset=cross", two.state).state.ask, two.state.ask);

  for (const char* bad : {"ask=spread,nope", "ask=Spread", "ask=spread,", "ask=weight,,spread"}) {
    const auto r = lab::parse_fragment(bad, two.state);
    ASSERT_EQ(r.notes.size(), 1u) << bad;
    EXPECT_EQ(r.state.ask, two.state.ask) << bad;  // refused whole
    EXPECT_EQ(r.notes[0].rfind(std::string("ignored ") + bad + ": expected", 0), 0u) << r.notes[0];
    for (int k = 0; k < practice::question_kind_count(); ++k)
      EXPECT_NE(r.notes[0].find(practice::kind_name(practice::QuestionKind(k))), std::string::npos) << r.notes[0];
  }
}

TEST(StateFragment, UnknownPresetKeepsTheBase) {
  const auto r = lab::parse_fragment("preset=nope&step=output", defaults());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.state.preset, "causal-3x2");
  EXPECT_EQ(r.state.step, lab::Step::output);
}

TEST(StateFragment, PercentEncodingAndLimits) {
  const auto r = lab::parse_fragment("preset=cross&pad=7%2C3&block=0%3A1&n=2049", defaults());
  EXPECT_EQ(r.state.pad, (std::vector<int>{7, 3}));
  EXPECT_EQ(r.state.blocked, (std::vector<std::pair<int, int>>{{0, 1}}));
  EXPECT_EQ(r.notes.size(), 1u);  // n beyond 2048
}

TEST(StateFragment, NormalizeKeepsIndicesInRange) {
  const auto r = lab::parse_fragment("preset=causal-3x2&query=9&attn=self&nk=7", defaults());
  EXPECT_EQ(r.state.query, 2);
  EXPECT_EQ(r.state.nk, 3);  // self-attention ties n_k to n_q
}

TEST(StateFragment, APaddedBatchIsCutToTheScoresTheWalkthroughKeeps) {
  // 8 sequences of 2048 × 2048 scores: 2²⁵ scores, four times the bound, so the first 2 stay.
  const auto big = lab::parse_fragment("preset=random&n=2048&pad=2048,1500,1000,700,2048,300,2048,64", defaults());
  EXPECT_EQ(big.state.pad, (std::vector<int>{2048, 1500}));
  ASSERT_EQ(big.notes.size(), 1u);
  EXPECT_NE(big.notes[0].find("pad gives 8 sequences"), std::string::npos) << big.notes[0];
  EXPECT_NE(big.notes[0].find("the first 2 are used"), std::string::npos) << big.notes[0];
  EXPECT_LE(std::uint64_t(big.state.batches()) * big.state.nq * big.state.nk, lab::Limits::max_batch_scores);
  // At n = 1024 the same batch fits whole, without a note.
  const auto fits = lab::parse_fragment("preset=random&n=1024&pad=1024,1000,900,700,1024,300,1024,64", defaults());
  EXPECT_EQ(fits.state.batches(), 8);
  EXPECT_TRUE(fits.notes.empty());
}

TEST(StateFragment, NeverThrowsOnJunk) {
  const char* junk[] = {"", "#", "&&&", "=", "==x", "%", "%zz=%", "q=,,,", "block=1:", "pad=1,2,3,4,5,6,7,8,9",
                        "seed=99999999999999", "scale=1e39", "\xff\xfe=\x01"};
  for (const char* text : junk) EXPECT_NO_THROW(lab::parse_fragment(text, defaults())) << text;
}

// [SECTION] view=train: the model's settings in a link.

TEST(StateTrain, TheIssuesLinkSetsTheModelAndRoundTrips) {
  const auto r = lab::parse_fragment("view=train&task=induction&layers=2&dk=16&scale=none&lr=0.003&seed=1&play=1",
                                     defaults());
  EXPECT_TRUE(r.notes.empty());
  const train::Config& c = r.state.train;
  EXPECT_EQ(c.task, train::Task::induction);
  EXPECT_EQ(c.layers, 2);
  EXPECT_EQ(c.d_k, 16);
  EXPECT_EQ(c.scale, attn::ScaleMode::none);
  EXPECT_EQ(c.lr, 0.003f);
  EXPECT_EQ(c.heads, train::defaults(train::Task::induction).heads);  // the task's defaults are the base
  EXPECT_TRUE(r.state.play);
  EXPECT_EQ(r.state.dk, defaults().dk);  // the walkthrough's d_k is not the model's
  // Only what differs from the task's defaults is written (lr 0.003 does, induction's is 0.01).
  EXPECT_EQ(lab::to_fragment(r.state), "preset=causal-3x2&view=train&task=induction&scale=none&lr=0.003&play=1");
  for (bool complete : {false, true}) {
    const auto back = lab::parse_fragment(lab::to_fragment(r.state, complete), defaults());
    EXPECT_TRUE(back.notes.empty()) << complete;
    EXPECT_EQ(back.state, r.state) << lab::to_fragment(r.state, complete);
  }
}

TEST(StateTrain, SharedKeysFollowTheViewWhereverItIsWritten) {
  const char* keys = "dk=24&heads=3&scale=dk&causal=1&seed=9&batch=1";
  const auto walk = lab::parse_fragment(std::string(keys) + "&view=walkthrough&preset=cross", defaults());
  EXPECT_TRUE(walk.notes.empty());
  EXPECT_EQ(walk.state.dk, 24);
  EXPECT_EQ(walk.state.heads, 3);
  EXPECT_EQ(walk.state.seed, 9u);
  EXPECT_EQ(walk.state.train, train::defaults(train::Task::reverse));

  const auto tr = lab::parse_fragment(std::string(keys) + "&view=train", defaults());
  EXPECT_TRUE(tr.notes.empty());
  EXPECT_EQ(tr.state.dk, defaults().dk);
  EXPECT_EQ(tr.state.seed, defaults().seed);
  EXPECT_EQ(tr.state.train.d_k, 24);
  EXPECT_EQ(tr.state.train.heads, 3);
  EXPECT_EQ(tr.state.train.scale, attn::ScaleMode::inv_dk);
  EXPECT_TRUE(tr.state.train.causal);
  EXPECT_EQ(tr.state.train.seed, 9u);
  EXPECT_EQ(tr.state.train.batch, 1);

  // In view=train the walkthrough's own values of those keys stay out of the link.
  lab::State s = tr.state;
  s.dk = 7;
  s.seed = 5;
  for (bool complete : {false, true}) {
    const std::string text = lab::to_fragment(s, complete);
    EXPECT_EQ(text.find("dk=7"), std::string::npos) << text;
    EXPECT_EQ(text.find("seed=5"), std::string::npos) << text;
    EXPECT_NE(text.find("dk=24"), std::string::npos) << text;
  }
}

TEST(StateTrain, SettingsThatNeedEachOtherApplyInAnyOrder) {
  // sort needs vocab ≥ seq: seq=32 alone is invalid at the default vocab of 16.
  for (const char* text : {"view=train&task=sort&seq=32&vocab=32", "view=train&vocab=32&seq=32&task=sort"}) {
    const auto r = lab::parse_fragment(text, defaults());
    EXPECT_TRUE(r.notes.empty()) << text;
    EXPECT_EQ(r.state.train.seq, 32) << text;
    EXPECT_EQ(r.state.train.vocab, 32) << text;
  }
}

TEST(StateTrain, BadValuesAreIgnoredWithValidatesSentence) {
  const auto r = lab::parse_fragment(
      "view=train&task=juggle&layers=two&scale=huge&causal=br&lr=-1&spf=fast&play=2&vs=scale:nope&seq=1.5&task=sort",
      defaults());
  const train::Config sort = train::defaults(train::Task::sort);
  EXPECT_EQ(r.state.train, sort);  // every bad value reverted, the good task kept
  EXPECT_EQ(r.state.steps_per_frame, 5);
  EXPECT_FALSE(r.state.play);
  EXPECT_EQ(r.state.vs, "");
  ASSERT_EQ(r.notes.size(), 9u);
  auto noted = [&](const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(text) != n.npos; });
  };
  EXPECT_TRUE(noted("ignored task=juggle"));
  // Whole numbers out of range are clamped instead (clamp_test.cpp).
  EXPECT_TRUE(noted("ignored layers=two: expected a whole number"));
  EXPECT_TRUE(noted("ignored seq=1.5: expected a whole number"));
  // The limits are train::validate()'s, quoted.
  EXPECT_TRUE(noted("ignored lr=-1: " + train::validate([] {
    train::Config c;
    c.lr = -1;
    return c;
  }())));
  EXPECT_TRUE(noted("ignored causal=br: expected 0 or 1"));
  EXPECT_TRUE(noted("ignored vs=scale:nope: expected sqrt, none or dk"));
}

TEST(StateTrain, CompareChangesOneSetting) {
  const auto r = lab::parse_fragment("view=train&dk=64&vs=scale:none", defaults());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.state.vs, "scale:none");
  train::Config other;
  EXPECT_EQ(lab::compare_config(r.state, other), "");
  train::Config expected = r.state.train;
  expected.scale = attn::ScaleMode::none;
  EXPECT_EQ(other, expected);
  lab::State s = r.state;
  s.vs = "init:0.02";
  EXPECT_EQ(lab::compare_config(s, other), "");
  EXPECT_EQ(other.init_std, 0.02f);
  for (const char* bad : {"scale", "task:sort", "dk:0", "colour:red"}) {
    s.vs = bad;
    EXPECT_NE(lab::compare_config(s, other), "") << bad;
  }
  EXPECT_EQ(lab::parse_fragment("view=train&vs=dk:999", defaults()).notes.size(), 1u);
}

TEST(StateTrain, EveryViewIsListedOnce) {
  EXPECT_TRUE(lab::is_experiment_view(lab::View::train));
  EXPECT_FALSE(lab::is_experiment_view(lab::View::compare));
  for (const lab::ViewRow& v : lab::kViews) {
    const auto r = lab::parse_fragment(std::string("view=") + v.name, defaults());
    EXPECT_TRUE(r.notes.empty()) << v.name;
    EXPECT_EQ(lab::name_of(r.state.view), std::string(v.name));
  }
  const auto bad = lab::parse_fragment("view=nope", defaults());
  ASSERT_EQ(bad.notes.size(), 1u);
  EXPECT_NE(bad.notes[0].find("train or model"), std::string::npos) << bad.notes[0];
}

}  // namespace
