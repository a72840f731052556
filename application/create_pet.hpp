#pragma once
// CreatePet (operation createPet): adds a pet, stamped with the time it was received so that an
// idempotency key can expire, and settles a repeated key by the rule of idempotency.hpp. A key is
// the caller's own: it is scoped to the principal that sent it, so two API keys that choose the
// same idempotency key name two different creates.
// Completes through `done`, exactly once, on any thread, by its deadline (as the repository's
// create does).

#include <optional>
#include <string>

#include "ports/clock.hpp"
#include "ports/key_verifier.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

class CreatePet {
 public:
  using Done = ports::Completion<domain::Pet>;

  CreatePet(ports::PetRepository& pets, const ports::Clock& clock) : pets_(pets), clock_(clock) {}

  // operator(): creates `pet` for `principal`, at most once per `idempotency_key` of theirs.
  void operator()(const ports::Principal& principal, domain::NewPet pet,
                  std::optional<std::string> idempotency_key, Done done) const;

 private:
  ports::PetRepository& pets_;
  const ports::Clock& clock_;
};

}  // namespace petstore::application
