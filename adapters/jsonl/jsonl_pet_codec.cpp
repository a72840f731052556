// The codec of jsonl_pet_codec.hpp: pet_json's reader and encoder, with the rules of a Pet line:
// exactly its four members, and an id of its own.

#include "adapters/jsonl/jsonl_pet_codec.hpp"

#include <utility>

#include "adapters/pet_json/pet_encoder.hpp"

namespace petstore::adapters::jsonl {
namespace {

using Kind = pet_json::PetMembers::Kind;

// to_pet: the Pet rules, one problem reported in a fixed order.
domain::Result<domain::Pet> to_pet(const pet_json::PetMembers& members) {
  if (members.has_unknown_member) {
    const std::string& name = members.first_unknown_member;
    const bool quotable = pet_json::is_quotable_member_name(name);
    return domain::invalid_argument(
        quotable ? name : "",
        (quotable ? "unknown member \"" + name + "\"" : "the line has an unknown member") +
            std::string("; the members are id, name, categoryId and status"));
  }
  if (members.id == Kind::absent) {
    return domain::invalid_argument("id", "id is required");
  }
  if (members.id != Kind::integer || members.id_value < domain::first_pet_id.value) {
    return domain::invalid_argument("id", "id must be an integer from 1 to 9223372036854775807");
  }
  auto name = pet_json::name_of(members);
  if (!name) {
    return name.error();
  }
  const auto category_id = pet_json::category_id_of(members);
  if (!category_id) {
    return category_id.error();
  }
  const auto status = pet_json::status_of(members, std::nullopt);
  if (!status) {
    return status.error();
  }
  return domain::Pet{domain::PetId{members.id_value}, std::move(*name), *category_id, *status};
}

}  // namespace

domain::Result<domain::Pet> PetLineDecoder::decode(std::string_view line) {
  auto members = reader_.read(line);
  if (!members) {
    return domain::invalid_argument("", std::move(members.error().message));
  }
  return to_pet(*members);
}

domain::Result<domain::Pet> decode_pet_line(std::string_view line) {
  return PetLineDecoder().decode(line);
}

void append_pet_line(std::string& out, const domain::Pet& pet) {
  pet_json::append_pet(out, pet);
  out += '\n';
}

}  // namespace petstore::adapters::jsonl
