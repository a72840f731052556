#include "application/create_pet.hpp"

#include <utility>

#include "application/idempotency.hpp"

namespace petstore::application {

void CreatePet::operator()(domain::NewPet pet, std::optional<ports::IdempotencyKey> idempotency,
                           Done done) const {
  const bool keyed = idempotency.has_value();
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
