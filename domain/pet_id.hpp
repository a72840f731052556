#pragma once
// PetId and CategoryId: int64 identifiers, distinct types so that one cannot stand for the other.
// Any int64 is well-formed; ports/pet_repository.hpp states how pet ids are assigned.

#include <compare>
#include <cstdint>

namespace petstore::domain {

struct PetId {
  std::int64_t value = 0;
  friend auto operator<=>(const PetId&, const PetId&) = default;
};

struct CategoryId {
  std::int64_t value = 0;
  friend auto operator<=>(const CategoryId&, const CategoryId&) = default;
};

// The first id the service assigns; ids then strictly increase and are never reused.
inline constexpr PetId first_pet_id{1};

}  // namespace petstore::domain
