// Refusal properties of decode_new_pet: no input makes it misbehave, it agrees with Boost.JSON's
// own parser about what is JSON (it only adds the refusal of repeated names), an extra member is
// always a validation failure, and a repeated name at any depth is always invalid JSON.

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "pet_json_generators.hpp"

namespace petstore::tests {
namespace {

using adapters::http::BodyProblem;
using adapters::http::decode_new_pet;

bool is_printable_ascii(std::string_view text) {
  for (const char c : text) {
    if (c < 0x20 || c > 0x7E) {
      return false;
    }
  }
  return !text.empty();
}

std::string json_string(std::string_view text) {
  std::string out;
  adapters::pet_json::append_json_string(out, text);
  return out;
}

// Every body gets an answer whose message is printable ASCII (so it copies no raw request
// bytes). What Boost.JSON cannot parse is invalid_json; what it parses into an object, decode
// refuses as invalid_json only for a repeated name.
void check_against_boost(const std::string& body) {
  const auto result = decode_new_pet(body);
  boost::json::error_code ec;
  const boost::json::value value = boost::json::parse(body, ec);
  if (result.has_value()) {
    RC_ASSERT(!ec);
    const boost::json::object& object = value.as_object();
    const auto* status = object.if_contains("status");
    RC_ASSERT(object.size() == (status != nullptr ? 3U : 2U));
    RC_ASSERT(object.at("name").as_string() == result->name.value());
    RC_ASSERT(object.at("categoryId").as_int64() == result->category_id.value);
    RC_ASSERT((status != nullptr ? std::string_view(status->as_string()) : "available") ==
              domain::to_string(result->status));
    return;
  }
  RC_ASSERT(is_printable_ascii(result.error().message));
  if (ec) {
    RC_ASSERT(result.error().problem == BodyProblem::invalid_json);
  } else if (result.error().problem == BodyProblem::invalid_json) {
    RC_ASSERT(!value.is_object() || result.error().message.find("twice") != std::string::npos);
  } else {
    RC_ASSERT(value.is_object());
  }
}

RC_GTEST_PROP(PetJsonRefusal, AnyBytesGetAnAnswer, ()) {
  check_against_boost(*rc::gen::arbitrary<std::string>());
}

RC_GTEST_PROP(PetJsonRefusal, RandomJsonAgreesWithBoostJson, ()) {
  check_against_boost(*gen_json_body());
}

RC_GTEST_PROP(PetJsonRefusal, AValidBodyWithOneByteChangedGetsAnAnswer, ()) {
  const NewPetBody parts = *gen_new_pet_body();
  std::string body = join(parts.members, parts.space);
  const auto at = *rc::gen::inRange<std::size_t>(0, body.size());
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      body[at] = *rc::gen::arbitrary<char>();
      break;
    case 1:
      body.insert(at, 1, *rc::gen::arbitrary<char>());
      break;
    default:
      body.erase(at, 1);
  }
  check_against_boost(body);
}

rc::Gen<std::string> gen_member_name() {
  return rc::gen::oneOf(rc::gen::element<std::string>("id", "name", "categoryId", "status", "x"),
                        rc::gen::container<std::string>(rc::gen::inRange<char>(0x20, 0x7F)),
                        gen_name_text());
}

bool is_plain(std::string_view name) {
  return !name.empty() && name.size() <= 64 &&
         name.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
             std::string_view::npos;
}

const std::vector<std::string>& values() {
  static const std::vector<std::string> texts{
      "1", "-2.5e3", "null", "true", R"("x")", R"([1,{"a":[]}])", R"({"name":"Rex","b":{}})"};
  return texts;
}

RC_GTEST_PROP(PetJsonRefusal, AnExtraMemberIsAValidationFailure, ()) {
  NewPetBody body = *gen_new_pet_body();
  const std::string key = *rc::gen::suchThat(gen_member_name(), [](const std::string& name) {
    return name != "name" && name != "categoryId" && name != "status";
  });
  const auto at = *rc::gen::inRange<std::size_t>(0, body.members.size() + 1);
  body.members.insert(body.members.begin() + static_cast<std::ptrdiff_t>(at),
                      Member{json_string(key), *rc::gen::elementOf(values())});
  const auto result = decode_new_pet(join(body.members, body.space));
  RC_ASSERT(!result.has_value());
  RC_ASSERT(result.error().problem == BodyProblem::validation_failed);
  const std::string& message = result.error().message;
  if (key == "id") {
    RC_ASSERT(message.find("id is assigned") != std::string::npos);
  } else if (is_plain(key)) {
    RC_ASSERT(message.find('"' + key + '"') != std::string::npos);
  } else {
    RC_ASSERT(message.find("unknown member") != std::string::npos);
  }
}

RC_GTEST_PROP(PetJsonRefusal, ARepeatedNameAtAnyDepthIsInvalidJson, ()) {
  NewPetBody body = *gen_new_pet_body();
  const std::string key = *gen_member_name();
  const auto spell = [&key] {
    return *rc::gen::arbitrary<bool>() ? escape_all(key) : json_string(key);
  };
  std::vector<Member> twice{{spell(), *rc::gen::elementOf(values())},
                            {spell(), *rc::gen::elementOf(values())}};
  const int depth = *rc::gen::inRange(0, 7);
  if (depth == 0) {
    body.members.insert(body.members.end(), twice.begin(), twice.end());
    shuffle(body.members);
  } else {
    std::string inner = join(twice, body.space);
    for (int level = 1; level < depth; ++level) {
      const bool array = *rc::gen::arbitrary<bool>();
      inner.insert(0, array ? "[" : R"({"w":)");
      inner += array ? "]" : "}";
    }
    body.members.push_back({R"("extra")", inner});
  }
  const auto result = decode_new_pet(join(body.members, body.space));
  RC_ASSERT(!result.has_value());
  RC_ASSERT(result.error().problem == BodyProblem::invalid_json);
  RC_ASSERT(result.error().message.find("twice") != std::string::npos);
}

}  // namespace
}  // namespace petstore::tests
