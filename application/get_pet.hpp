#pragma once
// GetPet (operation getPet, deprecated): one pet by id, or not_found, through `done`.

#include "ports/pet_repository.hpp"

namespace petstore::application {

class GetPet {
 public:
  explicit GetPet(const ports::PetRepository& pets) : pets_(pets) {}

  void operator()(domain::PetId id, ports::PetRepository::GetDone done) const {
    pets_.get(id, std::move(done));
  }

 private:
  const ports::PetRepository& pets_;
};

}  // namespace petstore::application
