// The encoders of pet_encoder.hpp, byte for byte: responses are compared by clients and by the
// idempotency replay, and exports by diff, so the exact shape matters, not only that it parses.

#include "adapters/pet_json/pet_encoder.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace petstore::adapters::pet_json {
namespace {

using namespace std::string_literals;
using Limits = std::numeric_limits<std::int64_t>;

domain::Pet pet(std::int64_t id, std::string_view name, std::int64_t category,
                domain::PetStatus status = domain::PetStatus::available) {
  return domain::Pet{domain::PetId{id}, domain::PetName::parse(name).value(),
                     domain::CategoryId{category}, status};
}

std::string json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

TEST(AppendJsonString, EscapesQuoteBackslashAndControls) {
  EXPECT_EQ(json_string("a\"b\\c/d"), R"("a\"b\\c/d")");
  EXPECT_EQ(json_string("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(json_string("\x01\x1f\x7f"s), R"("\u0001\u001f\u007f")");
  EXPECT_EQ(json_string("\0"s), R"("\u0000")");
  EXPECT_EQ(json_string(""), R"("")");
}

TEST(AppendJsonString, PassesUtf8Through) {
  const std::string text = "R\xc3\xa9x \xe2\x80\x83 \xe7\x8c\xab \xf0\x9f\x90\xb6";
  EXPECT_EQ(json_string(text), "\"" + text + "\"");
}

TEST(AppendJsonString, ReplacesEachMalformedByte) {
  EXPECT_EQ(json_string("a\xff"
                        "b"),
            R"("a\ufffdb")");
  EXPECT_EQ(json_string("\xe2\x82"), R"("\ufffd\ufffd")");            // truncated sequence
  EXPECT_EQ(json_string("\xc0\xaf"), R"("\ufffd\ufffd")");            // overlong '/'
  EXPECT_EQ(json_string("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // a surrogate
}

TEST(AppendPet, WritesAllFourMembers) {
  std::string out = "prefix:";
  append_pet(out, pet(1, "Rex", 7));
  EXPECT_EQ(out, R"(prefix:{"id":1,"name":"Rex","categoryId":7,"status":"available"})");
}

TEST(AppendPet, WritesExtremeIdsAndEscapedNames) {
  std::string out;
  append_pet(out, pet(Limits::max(), "a \"b\" \\", Limits::min(), domain::PetStatus::sold));
  EXPECT_EQ(out, R"({"id":9223372036854775807,"name":"a \"b\" \\",)"
                 R"("categoryId":-9223372036854775808,"status":"sold"})");
}

// The longest valid names, 200 four-byte code points or 200 quotes, fill the stack buffer; UTF-8
// and quotes among them are written as JSON wants them.
TEST(AppendPet, WritesTheLongestNamesWhole) {
  std::string longest;
  for (int i = 0; i < 200; ++i) {
    longest += "\xF0\x9F\x98\x80";  // U+1F600, as is
  }
  std::string out;
  append_pet(out, pet(Limits::max(), longest, Limits::min(), domain::PetStatus::pending));
  EXPECT_EQ(out, R"({"id":9223372036854775807,"name":")" + longest +
                     R"(","categoryId":-9223372036854775808,"status":"pending"})");
  std::string quoted = longest;
  quoted.replace(0, 4, "\"");
  out.clear();
  append_pet(out, pet(1, quoted, 2));
  EXPECT_EQ(out, R"({"id":1,"name":"\")" + quoted.substr(1) +
                     R"(","categoryId":2,"status":"available"})");
  out.clear();
  append_pet(out, pet(Limits::min() + 1, std::string(200, '\\'), Limits::min()));
  EXPECT_EQ(out, R"({"id":-9223372036854775807,"name":")" + std::string(400, '\\') +
                     R"(","categoryId":-9223372036854775808,"status":"available"})");
}

TEST(AppendPets, WritesAnArrayInOrder) {
  std::string out;
  append_pets(out, {});
  EXPECT_EQ(out, "[]");
  out.clear();
  const std::vector<domain::Pet> pets{pet(1, "A", 0, domain::PetStatus::pending), pet(2, "B", -3)};
  append_pets(out, pets);
  EXPECT_EQ(out, R"([{"id":1,"name":"A","categoryId":0,"status":"pending"},)"
                 R"({"id":2,"name":"B","categoryId":-3,"status":"available"}])");
}

}  // namespace
}  // namespace petstore::adapters::pet_json
