#pragma once
// NewPet and Pet: a pet as the client proposes it, and as the store holds it. Both are built from
// valid parts only, so holding one means every rule of contract section 5 holds.

#include <utility>

#include "domain/pet_id.hpp"
#include "domain/pet_name.hpp"
#include "domain/pet_status.hpp"

namespace petstore::domain {

struct NewPet {
  PetName name;
  CategoryId category_id;
  PetStatus status = default_pet_status;

  friend bool operator==(const NewPet&, const NewPet&) = default;
};

struct Pet {
  PetId id;
  PetName name;
  CategoryId category_id;
  PetStatus status = default_pet_status;

  friend bool operator==(const Pet&, const Pet&) = default;
};

// with_id: the pet that `pet` becomes once the store assigns it `id`.
[[nodiscard]] inline Pet with_id(PetId id, NewPet pet) {
  return Pet{id, std::move(pet.name), pet.category_id, pet.status};
}

}  // namespace petstore::domain
