// Fuzzes decode_new_pet, the NewPet JSON decoder, on arbitrary bytes. Oracles: it never crashes;
// a refusal carries a printable-ASCII message; an accepted body is also JSON to Boost.JSON's own
// parser with the same members (a second opinion), its name passes PetName::parse, and the NewPet
// survives a round trip through pet_json's encoders: append_pet writes it back as a Pet with the
// same members, and a NewPet object written with append_json_string decodes to the same value.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "adapters/http/api/pet_json.hpp"
#include "adapters/pet_json/pet_encoder.hpp"
#include "domain/pet_name.hpp"

#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::tests::fuzz::expect;
namespace domain = petstore::domain;
namespace http = petstore::adapters::http;
namespace pet_json = petstore::adapters::pet_json;

std::optional<std::int64_t> as_int64(const boost::json::value& value) {
  if (value.is_int64()) {
    return value.get_int64();
  }
  if (value.is_uint64() &&
      value.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return static_cast<std::int64_t>(value.get_uint64());
  }
  return std::nullopt;
}

// matches: whether the JSON object `object` has exactly the members of `pet` (and `id` when
// given), with the status written out even when the body left it to its default.
bool matches(const boost::json::object& object, const domain::NewPet& pet,
             std::optional<std::int64_t> id, bool status_required) {
  const std::size_t expected = (id ? 1U : 0U) + 2U + (object.contains("status") ? 1U : 0U);
  if (object.size() != expected || (status_required && !object.contains("status"))) {
    return false;
  }
  const auto* name = object.if_contains("name");
  const auto* category = object.if_contains("categoryId");
  if (name == nullptr || !name->is_string() || name->get_string() != pet.name.value() ||
      category == nullptr || as_int64(*category) != pet.category_id.value) {
    return false;
  }
  if (id && (!object.contains("id") || as_int64(object.at("id")) != *id)) {
    return false;
  }
  const auto* status = object.if_contains("status");
  if (status == nullptr) {
    return pet.status == domain::default_pet_status;
  }
  return status->is_string() && status->get_string() == domain::to_string(pet.status);
}

void check_accepted(std::string_view body, const domain::NewPet& pet) {
  const auto name = domain::PetName::parse(pet.name.value());
  expect(name && *name == pet.name, "an accepted name passes PetName::parse unchanged");

  boost::json::error_code ec;
  const boost::json::value parsed = boost::json::parse(body, ec);
  expect(!ec && parsed.is_object(), "an accepted body is a JSON object to Boost.JSON too");
  expect(matches(parsed.get_object(), pet, std::nullopt, false),
         "an accepted body's members are the NewPet's");

  constexpr std::int64_t id = 9'007'199'254'740'993;  // not exact in a double
  std::string pet_text;
  pet_json::append_pet(pet_text, domain::with_id(domain::PetId{id}, pet));
  const boost::json::value encoded = boost::json::parse(pet_text, ec);
  expect(!ec && encoded.is_object(), "append_pet writes a JSON object");
  expect(matches(encoded.get_object(), pet, id, true), "append_pet writes the pet's members");

  std::string new_pet_json = R"({"name":)";
  pet_json::append_json_string(new_pet_json, pet.name.value());
  new_pet_json += R"(,"categoryId":)" + std::to_string(pet.category_id.value) + R"(,"status":")";
  new_pet_json += domain::to_string(pet.status);
  new_pet_json += R"("})";
  const auto again = http::decode_new_pet(new_pet_json);
  expect(again && *again == pet, "a re-encoded NewPet decodes to the same NewPet");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = petstore::tests::fuzz::as_text(data, size);
  const auto decoded = http::decode_new_pet(body);
  if (!decoded) {
    const std::string& message = decoded.error().message;
    expect(!message.empty() && petstore::tests::fuzz::is_printable_ascii(message),
           "a refusal's message is non-empty printable ASCII");
    return 0;
  }
  check_accepted(body, *decoded);
  return 0;
}
