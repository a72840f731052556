#pragma once
// StorageFaultLog: a PetRepository decorator that writes one error line for each storage call
// that fails with unavailable or internal (a full disk, an I/O error, a damaged record). Clients
// see only the contract's 503 or 500; the operator needs the adapter's own words (the error's
// message and detail), which go here.
// Every other outcome (not found, a reused idempotency key) is ordinary and is not logged.

#include <memory>

#include "adapters/logging/logger.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::bootstrap {

// log_storage_faults: `inner`, whose failed calls are logged on `logger` (which must outlive it)
// as event "storage_error" with the call, the error code and the adapter's message.
[[nodiscard]] std::unique_ptr<ports::PetRepository> log_storage_faults(
    std::unique_ptr<ports::PetRepository> inner, adapters::logging::Logger& logger);

}  // namespace petstore::bootstrap
