// Each change of state is normalised once, by its owner (state.h's normalize): Lab::set_state
// for the app's paths (a link, setState and a host's message, which become a link, an edit,
// loaded data), parse_fragment for a reader without a Lab. Counted with lab::normalizations().
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "lab.h"
#include "load.h"
#include "message.h"
#include "state.h"

namespace {

// How many times normalize() runs while `f` does.
template <class F>
std::uint64_t normalizations_in(F&& f) {
  const std::uint64_t before = lab::normalizations();
  f();
  return lab::normalizations() - before;
}

// Links that need every part of a link's reading: a typed matrix that does not fit, pad cut to
// the batch limit, a number out of range, d_k past the walkthrough's limit, a view's fit.
const char* const kLinks[] = {
    "preset=causal-3x2&step=softmax&query=2",
    "attn=cross&nq=2&nk=3&dk=2&dv=2&q=1,2,3",
    "nq=9&pad=1,2,3,4,5,6,7,8,9,9,9",
    "query=99&nq=300",
    "dk=400&seed=4",
    "view=tiling&n=40&tile=50",
    "view=heads&heads=3&kvheads=2",
    "attn=self&proj=1&dmodel=2&x=1,2,3",
};

// Q, K and V of one 2 × 3 head, as a page's load() hands them.
constexpr char kRequest[] = R"({"q": [[1, 0, 1], [0, 1, 0]], "k": [[1, 1, 0], [0, 0, 1]], "v": [[1, 2], [3, 4]]})";

}  // namespace

// The app's path (app.cpp's apply_fragment): the link is read without normalising, Lab
// normalises it once, and the notes come from the state that made: the same state and notes
// as parse_fragment, which normalises once too.
TEST(NormalizeOnce, ALinkIsNormalisedOnceOnEachPath) {
  for (const bool live : {false, true}) {
    for (const char* link : kLinks) {
      const lab::State shown = lab::parse_fragment("preset=random&theme=dark", lab::State{}).state;
      lab::Lab lab(shown);
      lab::LinkReading reading;
      EXPECT_EQ(normalizations_in([&] { reading = lab::read_fragment(link, shown); }), 0u) << link;
      const auto change = live ? lab::Lab::Change::edit : lab::Lab::Change::replace;
      EXPECT_EQ(normalizations_in([&] { lab.set_state(reading.state, change); }), 1u) << link;
      EXPECT_EQ(normalizations_in([&] { (void)lab::link_notes(reading, lab.state()); }), 0u) << link;

      lab::ParseResult parsed;
      EXPECT_EQ(normalizations_in([&] { parsed = lab::parse_fragment(link, shown, live); }), 1u) << link;
      EXPECT_EQ(lab.state(), parsed.state) << link << (live ? " (live)" : "");
      EXPECT_EQ(lab::link_notes(reading, lab.state()), parsed.notes) << link;
    }
  }
}

// setState() and a host's message become a link (message.h): decoding normalises nothing.
TEST(NormalizeOnce, AMessageIsALink) {
  lab::DecodedState d;
  EXPECT_EQ(normalizations_in([&] {
              d = lab::decode_set_message(R"({"type":"attention-lab:set","state":{"step":"softmax","nq":4}})");
            }),
            0u);
  ASSERT_TRUE(d.accepted);
  lab::Lab lab(lab::State{});
  const lab::LinkReading reading = lab::read_fragment(d.fragment, lab.state());
  EXPECT_EQ(normalizations_in([&] { lab.set_state(reading.state); }), 1u);
  EXPECT_EQ(lab.state().nq, 4);
}

// Loaded data is normalised by the Lab that shows it, once; a live edit of it (a new shape:
// the heads and the typed matrices are carried, typed.h) once as well.
TEST(NormalizeOnce, LoadedDataAndEditsOfItAreNormalisedOnce) {
  lab::Lab lab(lab::State{});
  lab::Loaded loaded;
  EXPECT_EQ(normalizations_in([&] { loaded = lab::load_request(kRequest, "", lab.state()); }), 0u);
  ASSERT_EQ(loaded.error, "");
  EXPECT_EQ(normalizations_in([&] { lab.set_state(loaded.state, lab::Lab::Change::replace); }), 1u);
  EXPECT_EQ(lab.state().source, "the loaded request");

  lab::State edit = lab.state();
  edit.nq = 3;
  EXPECT_EQ(normalizations_in([&] { lab.set_state(edit); }), 1u);
  EXPECT_EQ(lab.state().q.size(), 3u * 3u);  // the typed rows kept, a seeded one added
  EXPECT_EQ(lab.state().source, "the loaded request");
}
