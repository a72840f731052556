// decode_new_pet: the pet object's JSON read by pet_json::PetObjectReader, then the NewPet rules
// over its members. Every validation_failed message is written here or in pet_json's member rules.

#include <string>
#include <utility>

#include "adapters/http/api/pet_json.hpp"
#include "adapters/pet_json/pet_object_reader.hpp"

namespace petstore::adapters::http {
namespace {

using Kind = pet_json::PetMembers::Kind;

DecodeError validation_failed(std::string message) {
  return DecodeError{BodyProblem::validation_failed, std::move(message)};
}

std::string unknown_member_message(std::string_view name) {
  const std::string allowed = "; the allowed members are name, categoryId and status";
  if (pet_json::is_quotable_member_name(name)) {
    return "unknown member \"" + std::string(name) + "\"" + allowed;
  }
  return "the body has an unknown member" + allowed;
}

// to_new_pet: the NewPet rules, one problem reported, in decode_new_pet's order (pet_json.hpp).
DecodeResult to_new_pet(const pet_json::PetMembers& members) {
  if (members.id != Kind::absent && !members.unknown_member_before_id) {
    return validation_failed("id is assigned by the service and must not be sent");
  }
  if (members.has_unknown_member) {
    return validation_failed(unknown_member_message(members.first_unknown_member));
  }
  auto name = pet_json::name_of(members);
  if (!name) {
    return validation_failed(std::move(name.error().message));
  }
  auto category_id = pet_json::category_id_of(members);
  if (!category_id) {
    return validation_failed(std::move(category_id.error().message));
  }
  auto status = pet_json::status_of(members, domain::default_pet_status);
  if (!status) {
    return validation_failed(std::move(status.error().message));
  }
  return domain::NewPet{std::move(*name), *category_id, *status};
}

}  // namespace

DecodeResult decode_new_pet(std::string_view body) {
  pet_json::PetObjectReader reader(pet_json::JsonText::body);
  auto members = reader.read(body);
  if (!members) {
    return DecodeError{BodyProblem::invalid_json, std::move(members.error().message)};
  }
  return to_new_pet(*members);
}

}  // namespace petstore::adapters::http
