#pragma once
// CreatePet (operation createPet): adds a pet, stamped with the time it was received so that an
// idempotency key can expire, and settles a repeated key by the rule of idempotency.hpp. A key is
// the caller's own: it is scoped to the principal that sent it, so two API keys that choose the
// same idempotency key name two different creates.
// Completes through `then`, exactly once, on any thread, by its deadline (as the repository's
// create does). `then` is composed with the settling into the repository's one completion, so a
// create's answer crosses no type-erased layer of this use case's own.

#include <optional>
#include <string>
#include <utility>

#include "application/idempotency.hpp"
#include "ports/clock.hpp"
#include "ports/key_verifier.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

class CreatePet {
 public:
  CreatePet(ports::PetRepository& pets, const ports::Clock& clock) : pets_(pets), clock_(clock) {}

  // operator(): creates `pet` for `principal`, at most once per `idempotency_key` of theirs, and
  // gives the answer to `then` (invocable with domain::Result<domain::Pet>). The storage call
  // carries `deadline` and `trace`.
  template <class Then>
  void operator()(const ports::Principal& principal, domain::NewPet pet,
                  std::optional<std::string> idempotency_key, Then then,
                  ports::Deadline deadline = ports::no_deadline,
                  ports::TraceContext trace = {}) const {
    using Outcome = domain::Result<ports::CreateOutcome>;
    if (!idempotency_key) {  // nothing to settle: the pet goes to the command uncopied
      pets_.create(command(principal, std::move(pet), std::nullopt),
                   {[then = std::move(then)](Outcome outcome) mutable {
                      then(settle_create(std::move(outcome)));
                    },
                    deadline, std::move(trace)});
      return;
    }
    auto keyed = command(principal, pet, std::move(idempotency_key));
    pets_.create(std::move(keyed),
                 {[then = std::move(then), sent = std::move(pet)](Outcome outcome) mutable {
                    then(settle_create(sent, std::move(outcome)));
                  },
                  deadline, std::move(trace)});
  }

 private:
  [[nodiscard]] ports::CreatePetCommand command(const ports::Principal& principal,
                                                domain::NewPet pet,
                                                std::optional<std::string> idempotency_key) const;

  ports::PetRepository& pets_;
  const ports::Clock& clock_;
};

}  // namespace petstore::application
