#pragma once
// ListPets (operation listPets): one page of the catalogue, ascending by id, optionally of one
// status and after a given id.

#include "ports/pet_repository.hpp"

namespace petstore::application {

class ListPets {
 public:
  explicit ListPets(const ports::PetRepository& pets) : pets_(pets) {}

  [[nodiscard]] domain::Result<ports::PetPage> operator()(const ports::PetQuery& query) const;

 private:
  const ports::PetRepository& pets_;
};

}  // namespace petstore::application
