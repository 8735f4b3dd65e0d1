// What a frame asks for beyond its next state: the panels read a const Lab and cannot act on
// the runs, the history or the platform, so they leave requests that ui::draw() returns and
// the app carries out after the frame (main.cpp), the platform's part through page_bridge.h
// (a download or a file, the clipboard, a new tab, the page's file chooser).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "export.h"
#include "state.h"

namespace ui {
namespace request {

// [SECTION] to the platform (the browser's page or the desktop program)
struct Export {  // the Export menu: build the file and save it, or copy the embed code
  ExportKind kind;
};
struct OpenLab {  // a figure's "Open in the full lab": the page at this fragment, in a new tab
  std::string fragment;
};
struct OpenLesson {  // the header's "Lesson", in this language ("en", "es")
  std::string lang;
};
struct OpenData {};   // "Open data…": the page's file chooser
struct OpenModel {};  // "Open model…": the page's chooser of a model's files (docs/your-model.md)

// [SECTION] to the app (its runs, history and practice session)
struct History {  // undo (negative) or redo steps, from the header's buttons and the keys
  int steps;
};
struct TrainStep {};  // view=train's Step and Reset
struct TrainReset {};
struct MeasureAgain {};  // view=cost's "Measure again"
struct PracticeNext {};  // a new practice question
struct PracticeAnswer {  // the typed or chosen answer, as JSON text
  std::string json;
};
// A measured height or a scroll applies only in the next frame: draw one more even though the
// app would rest (drawing on demand), so that the screen settles.
struct DrawAgain {};

}  // namespace request

using Request = std::variant<request::Export, request::OpenLab, request::OpenLesson, request::OpenData, request::OpenModel,
                             request::History, request::TrainStep, request::TrainReset, request::MeasureAgain,
                             request::PracticeNext, request::PracticeAnswer, request::DrawAgain>;

// One drawn frame: the state the person asks for, and the requests in the order made.
struct Frame {
  lab::State next;
  std::vector<Request> requests;
};

}  // namespace ui
