// The helpers the contract cases share (declared in pet_repository_contract.hpp).

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <utility>

#include "application/idempotency.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::domain {

std::ostream& operator<<(std::ostream& os, PetStatus status) { return os << to_string(status); }

std::ostream& operator<<(std::ostream& os, const NewPet& pet) {
  return os << "{name: \"" << pet.name.value() << "\", categoryId: " << pet.category_id.value
            << ", status: " << pet.status << "}";
}

std::ostream& operator<<(std::ostream& os, const Pet& pet) {
  return os << "{id: " << pet.id.value << ", name: \"" << pet.name.value()
            << "\", categoryId: " << pet.category_id.value << ", status: " << pet.status << "}";
}

}  // namespace petstore::domain

namespace petstore::tests {

domain::NewPet new_pet(std::string_view name, std::int64_t category_id, domain::PetStatus status) {
  return domain::NewPet{domain::PetName::parse(name).value(), domain::CategoryId{category_id},
                        status};
}

domain::PageSize page_size(std::int64_t count) { return domain::PageSize::from(count).value(); }

domain::Result<domain::Pet> create_pet(ports::PetRepository& repository, domain::NewPet pet,
                                       std::optional<ports::IdempotencyKey> idempotency,
                                       std::chrono::system_clock::time_point received_at) {
  // Shared, so that a `done` arriving after the wait below gave up still has somewhere to go.
  // A second call of `done` throws std::future_error, which fails loudly.
  // The port stores; the core's rule settles a repeated key: together they are what a create
  // means to a client, which is what these cases hold every adapter to.
  const domain::NewPet sent = pet;
  return application::settle_create(
      sent, create_now(repository,
                       ports::CreatePetCommand{std::move(pet), std::move(idempotency), received_at,
                                               application::idempotency_retention}));
}

std::vector<domain::Pet> list_all(const ports::PetRepository& repository,
                                  std::optional<domain::PetStatus> status, std::int64_t limit) {
  std::vector<domain::Pet> pets;
  ports::PetQuery query{status, std::nullopt, page_size(limit)};
  for (;;) {
    const auto page = list_now(repository, query).value();
    pets.insert(pets.end(), page.pets.begin(), page.pets.end());
    if (!page.has_more) {
      return pets;
    }
    if (page.pets.empty()) {
      throw std::runtime_error("list said has_more on an empty page");
    }
    query.after = page.pets.back().id;
  }
}

}  // namespace petstore::tests
