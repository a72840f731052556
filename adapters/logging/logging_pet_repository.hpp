#pragma once
// make_logging_pet_repository: a PetRepository decorator that writes one error line for each
// storage call that fails with unavailable or internal (a full disk, an I/O error, a damaged
// record). Clients see only the contract's 503 or 500; the operator needs the adapter's own words
// (the error's message and detail), which go here. Every other outcome (not found, a reused
// idempotency key) is ordinary and is not logged.

#include <memory>

#include "adapters/logging/logger.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::logging {

// make_logging_pet_repository: `inner`, whose failed calls are logged on `logger` as event
// "storage_error" with the call, the error code and the adapter's message. `logger` must
// outlive the result.
[[nodiscard]] std::unique_ptr<ports::PetRepository> make_logging_pet_repository(
    std::unique_ptr<ports::PetRepository> inner, Logger& logger);

}  // namespace petstore::adapters::logging
