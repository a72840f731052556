#include "application/create_pet.hpp"

#include <utility>

namespace petstore::application {

void CreatePet::operator()(domain::NewPet pet, std::optional<ports::IdempotencyKey> idempotency,
                           ports::PetRepository::CreateDone done) const {
  pets_.create(ports::CreatePetCommand{std::move(pet), std::move(idempotency), clock_.now()},
               std::move(done));
}

}  // namespace petstore::application
