#pragma once
// PetMembers: what a JSON object said about each member of a pet, before the rules of the API's
// NewPet or the data tools' Pet. The rules both share are below, each error naming the member.

#include <cstdint>
#include <optional>
#include <string>

#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters::pet_json {

struct PetMembers {
  // Kind: the kind of a member's value, as far as the rules care.
  enum class Kind : std::uint8_t { absent, string, integer, null, other };

  Kind id = Kind::absent;
  std::int64_t id_value = 0;  // when id is an integer (within int64)
  Kind name = Kind::absent;
  std::string name_text;  // when name is a string
  Kind category_id = Kind::absent;
  std::int64_t category_id_value = 0;  // when category_id is an integer (within int64)
  Kind status = Kind::absent;
  std::string status_text;  // when status is a string
  bool has_unknown_member = false;
  std::string first_unknown_member;       // the first member name not of a Pet, unescaped
  bool unknown_member_before_id = false;  // whether the first unknown member came before id
};

// name_of: the name member, required, a string that PetName::parse accepts.
[[nodiscard]] domain::Result<domain::PetName> name_of(const PetMembers& members);

// category_id_of: the categoryId member, required, an integer within int64.
[[nodiscard]] domain::Result<domain::CategoryId> category_id_of(const PetMembers& members);

// status_of: the status member, a string naming a status; `when_absent` when absent (required
// when nullopt).
[[nodiscard]] domain::Result<domain::PetStatus> status_of(
    const PetMembers& members, std::optional<domain::PetStatus> when_absent);

}  // namespace petstore::adapters::pet_json
