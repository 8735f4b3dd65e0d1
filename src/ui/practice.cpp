// [SECTION] practice mode (mode=practice): a question about what is on screen, or about a
// seeded configuration, answered by the kernel (src/practice); after an answer, the verdict
// and the arithmetic behind the right one, then the next question. The score is the session's.
#include <imgui.h>

#include <nlohmann/json.hpp>
#include <string>

#include "i18n.h"
#include "theme.h"
#include "ui.h"
#include "input/item_layout.h"

namespace ui {

int first_hidden_step(const lab::Lab& lab) {
  const practice::Session& p = lab.practice();
  // A wrong answer keeps the stage hidden: the verdict gives the asked cell's working, and the
  // rest of the matrix stays for the next question to ask. A right answer shows it.
  if (lab.state().mode != lab::Mode::practice || p.asked() == 0 || (p.answered() && p.last_correct()) ||
      !p.current().about_screen)
    return lab::kStepCount;
  // The first stage that holds the answer: a score's, the output's, else the weights'.
  switch (p.current().kind) {
    case practice::QuestionKind::score: return int(lab::Step::scores);
    case practice::QuestionKind::output_row: return int(lab::Step::output);
    default: return int(lab::Step::softmax);
  }
}

void practice(const lab::Lab& lab, lab::State&, Memory& ui) {
  const practice::Session& session = lab.practice();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(tr("Practice"));
  ImGui::PopFont();
  if (session.asked() == 0) {  // the first question comes after this frame
    ui.requests.emplace_back(request::PracticeNext{});
    return;
  }
  ImGui::SameLine();
  ImGui::TextColored(palette().muted_text, tr("%d right of %d asked"), session.right(),
                     session.asked() - (session.answered() ? 0 : 1));
  const practice::Question& q = session.current();
  text_wrapped(q.text);
  ImGui::Spacing();
  if (!session.answered()) {
    if (!q.choices.empty()) {
      for (std::size_t c = 0; c < q.choices.size(); ++c) {
        if (c) ImGui::SameLine();
        if (ImGui::Button(q.choices[c].c_str())) ui.requests.emplace_back(request::PracticeAnswer{nlohmann::json(int(c)).dump()});
      }
    } else {
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(tr("Check")).x -
                              ImGui::GetStyle().FramePadding.x * 2 - ImGui::GetStyle().ItemSpacing.x);
      const char* hint = q.kind == practice::QuestionKind::shape ? tr("rows × columns") : tr("your answer");
      // One number: a phone's number keyboard; a shape or a list: its full keyboard.
      const bool several = q.expected.size() > 1 && q.kind != practice::QuestionKind::shape;
      const bool one_number = q.kind != practice::QuestionKind::shape && !several;
      input::next_item(one_number ? input::ItemKind::input : input::ItemKind::text, hint);
      const bool enter = ImGui::InputTextWithHint("##answer", hint, ui.practice_input, sizeof ui.practice_input,
                                                  ImGuiInputTextFlags_EnterReturnsTrue);
      ImGui::SameLine();
      if ((ImGui::Button(tr("Check")) || enter) && ui.practice_input[0] != 0)
        ui.requests.emplace_back(request::PracticeAnswer{nlohmann::json(std::string(ui.practice_input)).dump()});
      // Wrapped: the Spanish hint is wider than a phone's card.
      ImGui::PushStyleColor(ImGuiCol_Text, palette().muted_text);
      text_wrapped(several ? tr("Numbers separated by commas.") : "");
      ImGui::PopStyleColor();
    }
    if (!ui.practice_error.empty()) {  // wrapped: "answer: expected one of the choices (…)" is wider than a phone
      ImGui::PushStyleColor(ImGuiCol_Text, palette().accent);
      text_wrapped(ui.practice_error);
      ImGui::PopStyleColor();
    }
    return;
  }
  const ImVec4 right(0.13f, 0.55f, 0.25f, 1), wrong(0.80f, 0.25f, 0.15f, 1);
  ImGui::TextColored(session.last_correct() ? right : wrong, "%s",
                     session.last_correct() ? tr("Right.") : tr("Not quite."));
  ImGui::SameLine();
  ImGui::Text(tr("The answer: %s"), q.expected_text.c_str());
  text_wrapped(q.explanation);
  if (ImGui::Button(tr("Next question"))) {
    ui.requests.emplace_back(request::PracticeNext{});
    ui.practice_input[0] = 0;
    ui.practice_error.clear();
  }
}

}  // namespace ui
