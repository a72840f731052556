// The member rules of pet_members.hpp; their messages are the contract's, in the API and import.

#include "adapters/pet_json/pet_members.hpp"

namespace petstore::adapters::pet_json {

using Kind = PetMembers::Kind;

domain::Result<domain::PetName> name_of(const PetMembers& members) {
  if (members.name == Kind::absent) {
    return domain::invalid_argument("name", "name is required");
  }
  if (members.name != Kind::string) {
    return domain::invalid_argument("name", "name must be a string");
  }
  return domain::PetName::parse(members.name_text, "name");
}

domain::Result<domain::CategoryId> category_id_of(const PetMembers& members) {
  if (members.category_id == Kind::absent) {
    return domain::invalid_argument("categoryId", "categoryId is required");
  }
  if (members.category_id != Kind::integer) {
    return domain::invalid_argument("categoryId", "categoryId must be an integer within int64");
  }
  return domain::CategoryId{members.category_id_value};
}

domain::Result<domain::PetStatus> status_of(const PetMembers& members,
                                            std::optional<domain::PetStatus> when_absent) {
  if (members.status == Kind::absent && when_absent) {
    return *when_absent;
  }
  if (members.status == Kind::absent) {
    return domain::invalid_argument("status", "status is required");
  }
  if (members.status != Kind::string) {
    return domain::invalid_argument("status",
                                    "status must be a string, one of available, pending, sold");
  }
  return domain::parse_pet_status(members.status_text, "status");
}

}  // namespace petstore::adapters::pet_json
