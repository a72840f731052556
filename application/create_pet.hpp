#pragma once
// CreatePet (operation createPet): adds a pet, stamped with its receipt time so that an
// idempotency key can expire, and settles a repeated key by idempotency.hpp. Keys are scoped to
// the sending principal. Completes through `then` as the repository's create does; `then` is
// composed into the repository's one completion, so no type-erased layer of its own is crossed.

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
  // gives the answer to `then` (invocable with domain::Result<domain::Pet>).
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
