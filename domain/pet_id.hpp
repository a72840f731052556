#pragma once
// PetId and CategoryId: int64 identifiers. They are distinct types so that one cannot be passed
// where the other is meant. Any int64 is a well-formed identifier; the service assigns pet ids
// from 1 upward (the repository port states how).

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
