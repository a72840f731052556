#pragma once
// CreatePet (operation createPet): adds a pet, stamped with the time it was received so that an
// idempotency key can expire. Completes through `done`, exactly once, on any thread.

#include <optional>

#include "ports/clock.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

class CreatePet {
 public:
  CreatePet(ports::PetRepository& pets, const ports::Clock& clock) : pets_(pets), clock_(clock) {}

  void operator()(domain::NewPet pet, std::optional<ports::IdempotencyKey> idempotency,
                  ports::PetRepository::CreateDone done) const;

 private:
  ports::PetRepository& pets_;
  const ports::Clock& clock_;
};

}  // namespace petstore::application
