#pragma once
// CreatePet (operation createPet): adds a pet, stamped with the time it was received so that an
// idempotency key can expire, and settles a repeated key by the rule of idempotency.hpp.
// Completes through `done`, exactly once, on any thread, by its deadline (as the repository's
// create does).

#include <optional>

#include "ports/clock.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

class CreatePet {
 public:
  using Done = ports::Completion<domain::Pet>;

  CreatePet(ports::PetRepository& pets, const ports::Clock& clock) : pets_(pets), clock_(clock) {}

  void operator()(domain::NewPet pet, std::optional<ports::IdempotencyKey> idempotency,
                  Done done) const;

 private:
  ports::PetRepository& pets_;
  const ports::Clock& clock_;
};

}  // namespace petstore::application
