#pragma once
// StorageFaultLog: a PetRepository decorator that writes one error line for each storage call
// that fails with unavailable or internal (a full disk, an I/O error, a damaged record). Clients
// see only the contract's 503 or 500; the operator needs the adapter's own words (the error's
// message and detail), which go here.
// Every other outcome (not found, a reused idempotency key) is ordinary and is not logged.

#include <memory>

#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::bootstrap {

// log_storage_faults: `inner`, whose failed calls are logged on `logger` as event
// "storage_error" with the call, the error code and the adapter's message. With `metrics`, each
// pet it creates also counts in the stored-pets gauge. Either may be null; both must outlive it.
[[nodiscard]] std::unique_ptr<ports::PetRepository> log_storage_faults(
    std::unique_ptr<ports::PetRepository> inner, adapters::logging::Logger* logger,
    adapters::metrics::Metrics* metrics = nullptr);

}  // namespace petstore::bootstrap
