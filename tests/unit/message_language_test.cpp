// A state or host message that is refused says so in the language on screen (src/i18n/es).
#include <gtest/gtest.h>

#include "i18n.h"
#include "message.h"

TEST(MessageLanguage, RefusedStatesAreNotedInSpanish) {
  i18n::set_language(i18n::Lang::es);
  const lab::DecodedState object = lab::decode_state_object("[1, 2]");
  const lab::DecodedState value = lab::decode_state_object(R"({"q": {"a": 1}})");
  const lab::DecodedState message = lab::decode_set_message(R"({"type": "other"})");
  i18n::set_language(i18n::Lang::en);
  ASSERT_EQ(object.notes.size(), 1u);
  EXPECT_EQ(object.notes[0], "se ignoró un estado que no es un objeto de claves y valores");
  ASSERT_EQ(value.notes.size(), 1u);
  EXPECT_EQ(value.notes[0], "se ignoró q: se esperaba un texto, un número, un booleano o una lista de números");
  ASSERT_EQ(message.notes.size(), 1u);
  EXPECT_EQ(message.notes[0].rfind("se ignoró un mensaje", 0), 0u) << message.notes[0];
}
