#pragma once
// open_postgres_storage: the PostgreSQL repository of `petstore serve`, its events joined to the
// logs (one line per failed attempt, lost connection and recovery), the metrics and /readyz.

#include <atomic>
#include <memory>
#include <stop_token>

#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"

namespace petstore::bootstrap {

// `logger`, `metrics` and `ready` must outlive the repository.
// Opening waits for the schema's first attempt (at most the call timeout), less once `stop` is
// requested.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetRepository>> open_postgres_storage(
    adapters::storage::postgres::PostgresOptions options, adapters::logging::Logger& logger,
    adapters::metrics::Metrics& metrics, std::atomic<bool>& ready, const std::stop_token& stop);

}  // namespace petstore::bootstrap
