#pragma once
// GetPet (operation getPet, deprecated): one pet by id, or not_found.

#include "ports/pet_repository.hpp"

namespace petstore::application {

class GetPet {
 public:
  explicit GetPet(const ports::PetRepository& pets) : pets_(pets) {}

  [[nodiscard]] domain::Result<domain::Pet> operator()(domain::PetId id) const;

 private:
  const ports::PetRepository& pets_;
};

}  // namespace petstore::application
