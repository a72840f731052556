#include "application/create_pet.hpp"

namespace petstore::application {

ports::CreatePetCommand CreatePet::command(const ports::Principal& principal, domain::NewPet pet,
                                           std::optional<std::string> idempotency_key) const {
  std::optional<ports::IdempotencyKey> idempotency;
  if (idempotency_key) {
    idempotency = ports::IdempotencyKey{principal.id, std::move(*idempotency_key)};
  }
  return {std::move(pet), std::move(idempotency), clock_.now(), idempotency_retention};
}

}  // namespace petstore::application
