#include "application/create_pet.hpp"

#include <utility>

#include "application/idempotency.hpp"

namespace petstore::application {

void CreatePet::operator()(const ports::Principal& principal, domain::NewPet pet,
                           std::optional<std::string> idempotency_key, Done done) const {
  const bool keyed = idempotency_key.has_value();
  std::optional<ports::IdempotencyKey> idempotency;
  if (keyed) {
    idempotency = ports::IdempotencyKey{principal.id, std::move(*idempotency_key)};
  }
  ports::CreatePetCommand command{pet, std::move(idempotency), clock_.now(), idempotency_retention};
  if (!keyed) {  // nothing to settle: spare the copy of the pet
    pets_.create(std::move(command), std::move(done).adapt<ports::CreateOutcome>([](auto outcome) {
      return outcome ? domain::Result<domain::Pet>(std::move(outcome->pet))
                     : domain::Result<domain::Pet>(std::move(outcome).error());
    }));
    return;
  }
  pets_.create(std::move(command),
               std::move(done).adapt<ports::CreateOutcome>([sent = std::move(pet)](auto outcome) {
                 return settle_create(sent, std::move(outcome));
               }));
}

}  // namespace petstore::application
