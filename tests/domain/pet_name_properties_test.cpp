// PetName as properties: every name contract section 5 allows is accepted and kept byte for
// byte; every way of breaking the rule is rejected with the field "name".

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "domain/pet_name.hpp"

#include "text_generators.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using domain::PetName;

// inserted: `code_points` as UTF-8 with `bytes` put in front of the code point at `at`.
std::string inserted(const std::vector<char32_t>& code_points, std::size_t at,
                     const std::string& bytes) {
  const auto middle = code_points.begin() + static_cast<std::ptrdiff_t>(at);
  return utf8(std::vector<char32_t>(code_points.begin(), middle)) + bytes +
         utf8(std::vector<char32_t>(middle, code_points.end()));
}

void assert_rejected(const std::string& text) {
  const auto name = PetName::parse(text);
  RC_ASSERT(!name.has_value());
  RC_ASSERT(name.error().code == ErrorCode::invalid_argument);
  RC_ASSERT(name.error().field == std::string("name"));
}

RC_GTEST_PROP(PetNameProperties, AcceptsEveryValidNameAndKeepsItExactly, ()) {
  const auto text = utf8(*name_code_points(1, PetName::max_code_points));
  const auto name = PetName::parse(text);
  RC_ASSERT(name.has_value());
  RC_ASSERT(name->value() == text);
}

// Lengths at the limit, with multi-byte characters: bytes are not what is counted.
RC_GTEST_PROP(PetNameProperties, AcceptsUpTo200CodePointsAndNoMore, ()) {
  const auto length = *rc::gen::element<std::size_t>(1, 199, 200, 201, 202, 250);
  const auto text = utf8(*name_code_points(length, length));
  RC_ASSERT(PetName::parse(text).has_value() == (length <= PetName::max_code_points));
}

RC_GTEST_PROP(PetNameProperties, RejectsAControlCharacterAnywhere, ()) {
  const auto code_points = *name_code_points(1, PetName::max_code_points - 1);
  const auto at = *rc::gen::inRange<std::size_t>(0, code_points.size() + 1);
  assert_rejected(inserted(code_points, at, utf8(*control_code_point())));
}

RC_GTEST_PROP(PetNameProperties, RejectsNamesOfWhiteSpaceOnly, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(1, PetName::max_code_points + 1);
  assert_rejected(utf8(*rc::gen::container<std::vector<char32_t>>(count, blank_code_point())));
}

RC_GTEST_PROP(PetNameProperties, RejectsIllFormedUtf8Anywhere, ()) {
  const auto code_points = *name_code_points(1, PetName::max_code_points);
  const auto at = *rc::gen::inRange<std::size_t>(0, code_points.size() + 1);
  assert_rejected(inserted(code_points, at, *ill_formed_utf8()));
}

// The field named in the error is the one the caller passed, whatever broke the rule.
RC_GTEST_PROP(PetNameProperties, NamesTheCallersField, ()) {
  const auto blanks = *rc::gen::container<std::vector<char32_t>>(blank_code_point());
  const auto field = *rc::gen::element<std::string>("name", "nickname", "pets[3].name");
  const auto name = PetName::parse(utf8(blanks), field);
  RC_ASSERT(!name.has_value());
  RC_ASSERT(name.error().field == field);
}

}  // namespace
}  // namespace petstore::tests
