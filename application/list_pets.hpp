#pragma once
// ListPets (operation listPets): one page of the catalogue, ascending by id, optionally of one
// status and after a given id, through `done`.

#include "ports/pet_repository.hpp"

namespace petstore::application {

class ListPets {
 public:
  explicit ListPets(const ports::PetRepository& pets) : pets_(pets) {}

  void operator()(const ports::PetQuery& query, ports::PetRepository::ListDone done) const {
    pets_.list(query, std::move(done));
  }

 private:
  const ports::PetRepository& pets_;
};

}  // namespace petstore::application
