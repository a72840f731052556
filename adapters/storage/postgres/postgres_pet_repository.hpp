#pragma once
// The PostgreSQL PetRepository: any number of Petstore processes share one database. libpq's
// asynchronous API on a few adapter threads, so no caller's thread waits for the database; every
// completion runs on an adapter thread. Ids come from a counter row, so they increase in commit
// order across instances (docs/decisions/postgres-id-counter-row.md).

#include <chrono>
#include <cstddef>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "adapters/storage/postgres/postgres_observer.hpp"
#include "domain/error.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

struct PostgresOptions {
  std::string database_url;  // a libpq connection string or URI
  // Replicas that gets and lists may read from (each host of a multi-host URL is one); empty:
  // none. Creates and Idempotency-Key records never go there.
  std::string read_url;
  std::size_t pool_size = 2;
  // Longest a call waits for a connection plus the database's answer; past it, unavailable.
  std::chrono::milliseconds call_timeout{5000};
  // Told what happens (logs, metrics, readiness); the repository keeps it alive.
  std::shared_ptr<PostgresObserver> observer = std::make_shared<PostgresObserver>();
};

// describe_database_url: "user@host:port/dbname" for logs (never the password), or
// invalid_argument when libpq cannot parse `url` (the message names `flag`, not the URL).
[[nodiscard]] domain::Result<std::string> describe_database_url(
    const std::string& url, std::string_view flag = "--database-url");

// make_postgres_pet_repository: a repository on the database at `options.database_url`. It first
// tries, on the calling thread, to create or migrate the schema, for at most `call_timeout` (5 s
// at most) or until `stop`. Errors: invalid_argument for a URL libpq cannot parse; internal for a
// schema this binary cannot use. A database that does not answer in time, or whose migration lock
// is held, is no error: the adapter keeps trying in the background and fails calls with
// unavailable until the schema is ready and a connection works.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetRepository>> make_postgres_pet_repository(
    const PostgresOptions& options, const std::stop_token& stop = {});

}  // namespace petstore::adapters::storage::postgres
