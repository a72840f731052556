// Round-trip properties of the JSON codec: every valid NewPet body decodes to its NewPet, and
// what the encoders write parses back with boost::json::parse to the same values.

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "domain/unicode.hpp"

#include "pet_json_generators.hpp"

namespace petstore::tests {
namespace {

using adapters::http::decode_new_pet;

boost::json::value parse_json(std::string_view text) {
  boost::json::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  RC_ASSERT(!ec);
  return value;
}

void assert_same_pet(const boost::json::value& value, const domain::Pet& pet) {
  const boost::json::object& object = value.as_object();
  RC_ASSERT(object.size() == 4U);
  RC_ASSERT(object.at("id").as_int64() == pet.id.value);
  RC_ASSERT(object.at("name").as_string() == pet.name.value());
  RC_ASSERT(object.at("categoryId").as_int64() == pet.category_id.value);
  RC_ASSERT(object.at("status").as_string() == domain::to_string(pet.status));
}

RC_GTEST_PROP(PetJson, EveryValidNewPetBodyDecodesToItsNewPet, ()) {
  const NewPetBody body = *gen_new_pet_body();
  const auto result = decode_new_pet(join(body.members, body.space));
  RC_ASSERT(result.has_value());
  RC_ASSERT(result->name.value() == body.name);
  RC_ASSERT(result->category_id.value == body.category_id);
  RC_ASSERT(result->status == body.status.value_or(domain::default_pet_status));
}

RC_GTEST_PROP(PetJson, AnEncodedPetParsesBackToItsFields, ()) {
  const domain::Pet pet = *gen_pet();
  std::string out;
  adapters::pet_json::append_pet(out, pet);
  assert_same_pet(parse_json(out), pet);
}

RC_GTEST_PROP(PetJson, EncodedPetsParseBackInOrder, ()) {
  const auto pets = *rc::gen::resize(8, rc::gen::container<std::vector<domain::Pet>>(gen_pet()));
  std::string out;
  adapters::pet_json::append_pets(out, pets);
  const boost::json::value value = parse_json(out);
  const boost::json::array& array = value.as_array();
  RC_ASSERT(array.size() == pets.size());
  for (std::size_t i = 0; i < pets.size(); ++i) {
    assert_same_pet(array[i], pets[i]);
  }
}

RC_GTEST_PROP(PetJson, AnErrorBodyParsesWithItsThreeMembers, ()) {
  const auto code = *rc::gen::arbitrary<std::string>();
  const auto message = *rc::gen::oneOf(rc::gen::arbitrary<std::string>(), gen_name_text());
  const int status = *rc::gen::inRange(100, 600);
  const boost::json::value value = parse_json(adapters::http::encode_error(code, message, status));
  const boost::json::object& object = value.as_object();
  RC_ASSERT(object.size() == 3U);
  RC_ASSERT(object.at("status").as_int64() == status);
  RC_ASSERT(object.at("code").is_string());
  std::string_view rest = message;
  bool utf8 = true;
  while (utf8 && !rest.empty()) {
    utf8 = domain::unicode::decode_next(rest).has_value();
  }
  RC_ASSERT(!utf8 || object.at("message").as_string() == message);
}

}  // namespace
}  // namespace petstore::tests
