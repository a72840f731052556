// PetName by example: the edges of contract section 5's name rule, one case each.

#include "domain/pet_name.hpp"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "text_generators.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using domain::PetName;

std::string repeat(std::string_view piece, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) {
    text += piece;
  }
  return text;
}

void expect_accepted(const std::string& text) {
  const auto name = PetName::parse(text);
  ASSERT_TRUE(name.has_value()) << "\"" << text << "\": " << name.error().message;
  EXPECT_EQ(name->value(), text);
}

void expect_rejected(const std::string& text, std::string_view why) {
  const auto name = PetName::parse(text);
  ASSERT_FALSE(name.has_value()) << "\"" << text << "\" was accepted";
  EXPECT_EQ(name.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(name.error().field, "name");
  EXPECT_NE(name.error().message.find(why), std::string::npos) << name.error().message;
}

TEST(PetName, AcceptsAPlainName) { expect_accepted("Rex"); }

TEST(PetName, KeepsTheTextExactly) {
  expect_accepted("  Rex  ");                   // no trimming
  expect_accepted("e\u0301");                   // no normalisation (NFC would make it U+00E9)
  expect_accepted("\u00D1and\u00FA");           // 2-byte
  expect_accepted("\u732B\u306E\u540D\u524D");  // 3-byte
  expect_accepted("\U0001F415 Bruno");          // 4-byte
  expect_accepted("\u3000Rex\u00A0");           // blanks around a visible one
  expect_accepted("a" + std::string("\u0085") + "b\u2028c");  // NEL and line separator inside
}

TEST(PetName, AcceptsCharactersThatOnlyLookBlankOrControl) {
  expect_accepted("\u200B");  // zero-width space is not White_Space
  expect_accepted("\u180E");  // nor is the Mongolian vowel separator since Unicode 6.3
  expect_accepted("\uFEFF");  // byte order mark
  expect_accepted("\u0080");  // C1 controls are outside the contract's control range
  expect_accepted("\u009F");
  expect_accepted("\u00AD");  // soft hyphen
}

TEST(PetName, RejectsTheEmptyName) { expect_rejected("", "empty"); }

TEST(PetName, RejectsNamesOfWhiteSpaceOnly) {
  for (const std::string text : {" ", "   ", "\u00A0", "\u2003", "\u3000", "\u0085", "\u1680",
                                 "\u2028\u2029", "\u202F\u205F", " \u00A0\u3000 "}) {
    expect_rejected(text, "white space");
  }
}

TEST(PetName, RejectsControlCharacters) {
  expect_rejected(std::string("a\0b", 3), "control");
  expect_rejected("a\x1F", "control");
  expect_rejected("\x7FRex", "control");
  expect_rejected("Rex\n", "control");
  expect_rejected("\t", "control");  // white space too, but a control first
  expect_rejected("Re\rx", "control");
}

TEST(PetName, CountsCodePointsNotBytes) {
  for (const std::string piece : {"a", "\u00E9", "\u732B", "\U0001F415"}) {
    expect_accepted(repeat(piece, 1));
    expect_accepted(repeat(piece, 199));
    expect_accepted(repeat(piece, 200));
    expect_rejected(repeat(piece, 201), "200");
  }
  expect_accepted(repeat("\u00E9", 100) + repeat("\U0001F415", 99) + " ");
  expect_rejected(repeat(" ", 200) + "a", "200");
}

TEST(PetName, RejectsIllFormedUtf8) {
  for (const std::string text :
       {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "Rex\xC3", "\x80Rex",
        "R\xFFx", "\xC3\x28", "\xF8\x88\x80\x80\x80"}) {
    expect_rejected(text, "UTF-8");
  }
}

TEST(PetName, NamesTheFieldItWasGiven) {
  const auto name = PetName::parse("", "nickname");
  ASSERT_FALSE(name.has_value());
  EXPECT_EQ(name.error().field, "nickname");
  EXPECT_NE(name.error().message.find("nickname"), std::string::npos);
}

TEST(PetName, EqualNamesCompareEqual) {
  EXPECT_EQ(PetName::parse("Rex").value(), PetName::parse("Rex").value());
  EXPECT_NE(PetName::parse("Rex").value(), PetName::parse("rex").value());
  EXPECT_NE(PetName::parse("\u00E9").value(), PetName::parse("e\u0301").value());
}

}  // namespace
}  // namespace petstore::tests
