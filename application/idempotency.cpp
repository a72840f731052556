#include "application/idempotency.hpp"

#include <utility>

namespace petstore::application {

bool is_same_request(const domain::Pet& stored, const domain::NewPet& sent) {
  return stored.name == sent.name && stored.category_id == sent.category_id &&
         stored.status == sent.status;
}

domain::Result<domain::Pet> settle_create(const domain::NewPet& sent,
                                          domain::Result<ports::CreateOutcome> outcome) {
  if (!outcome) {
    return std::move(outcome).error();
  }
  if (outcome->created || is_same_request(outcome->pet, sent)) {
    return std::move(outcome->pet);
  }
  return domain::make_error(domain::ErrorCode::conflict, "idempotency_key",
                            "the key was used before with another pet");
}

domain::Result<domain::Pet> settle_create(domain::Result<ports::CreateOutcome> outcome) {
  if (!outcome) {
    return std::move(outcome).error();
  }
  return std::move(outcome->pet);
}

}  // namespace petstore::application
