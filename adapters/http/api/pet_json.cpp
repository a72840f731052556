// The Error body and its codes, and decode_new_pet: the pet object's JSON read by
// pet_json::PetObjectReader, then the NewPet rules over its members. Every validation_failed
// message is written here or in pet_json's member rules.

#include "adapters/http/api/pet_json.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "adapters/http/api/ascii.hpp"
#include "adapters/pet_json/pet_encoder.hpp"
#include "adapters/pet_json/pet_object_reader.hpp"

namespace petstore::adapters::http {
namespace {

DecodeError validation_failed(std::string message) {
  return DecodeError{BodyProblem::validation_failed, std::move(message)};
}

}  // namespace

DecodeResult decode_new_pet(std::string_view body) {
  pet_json::PetObjectReader reader(pet_json::JsonText::body);
  auto members = reader.read(body);
  if (!members) {
    return DecodeError{BodyProblem::invalid_json, std::move(members.error().message)};
  }
  // The NewPet rules, one problem reported, in the order pet_json.hpp gives.
  if (members->id != pet_json::PetMembers::Kind::absent && !members->unknown_member_before_id) {
    return validation_failed("id is assigned by the service and must not be sent");
  }
  if (members->has_unknown_member) {
    const std::string_view name = members->first_unknown_member;
    const std::string allowed = "; the allowed members are name, categoryId and status";
    return validation_failed(pet_json::is_quotable_member_name(name)
                                 ? "unknown member \"" + std::string(name) + "\"" + allowed
                                 : "the body has an unknown member" + allowed);
  }
  auto name = pet_json::name_of(*members);
  if (!name) {
    return validation_failed(std::move(name.error().message));
  }
  auto category_id = pet_json::category_id_of(*members);
  if (!category_id) {
    return validation_failed(std::move(category_id.error().message));
  }
  auto status = pet_json::status_of(*members, domain::default_pet_status);
  if (!status) {
    return validation_failed(std::move(status.error().message));
  }
  return domain::NewPet{std::move(*name), *category_id, *status};
}

std::string_view to_code(BodyProblem problem) noexcept {
  return problem == BodyProblem::invalid_json ? "invalid_json" : "validation_failed";
}

void throw_exception_from_error(const DecodeError& error, const boost::source_location& /*where*/) {
  throw std::invalid_argument(error.message);
}

std::string encode_error(std::string_view code, std::string_view message, int status) {
  std::string out;
  out.reserve(48 + code.size() + message.size());
  out += R"({"code":)";
  pet_json::append_json_string(out, code);
  out += R"(,"message":)";
  pet_json::append_json_string(out, message);
  out += R"(,"status":)";
  append_decimal(out, status);
  out += '}';
  return out;
}

}  // namespace petstore::adapters::http
