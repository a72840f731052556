#pragma once
// The PostgreSQL adapter behind the PetRepository port: any number of Petstore processes share
// one database. libpq's asynchronous API on a few adapter threads of its own (a poll loop each),
// so no caller's thread ever waits for the database; every completion runs on an adapter thread.
// Creates are group-committed with synchronous commit on; ids come from a counter row updated
// inside the create transaction, so they increase in commit order across every instance
// (docs/decisions/postgres-id-counter-row.md). The schema lives in the `petstore` schema,
// versioned and migrated forward under an advisory lock.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "domain/error.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// PostgresEvents: what the adapter reports, for logs and metrics. Each may be empty; each is
// called on an adapter thread and must be quick. No text here carries the URL's password.
struct PostgresEvents {
  std::function<void(std::string_view reason)> connect_failed;   // one attempt failed
  std::function<void(std::string_view reason)> connection_lost;  // an open connection broke
  std::function<void()> connection_restored;  // a connection is up again after failing
  std::function<void(bool available)> availability_changed;  // some connection open, or none
  std::function<void(std::size_t open, std::size_t in_use)> pool_changed;
  std::function<void(std::chrono::nanoseconds)> connection_waited;  // a call's wait for one
  std::function<void(std::chrono::nanoseconds)> query_finished;     // a read's round trip
  std::function<void(std::chrono::nanoseconds, std::size_t creates)> commit_finished;
  // A batch whose COMMIT's answer was lost, resolved on a connection of its own: `outcome` is
  // "committed" (its creates answered with their pets), "not_committed" (sent again, or
  // unavailable past their deadline) or "unknown" (unavailable); `detail` says how.
  std::function<void(std::string_view outcome, std::size_t creates, std::string_view detail)>
      commit_resolved;
  // The database's schema cannot be used by this binary (newer, damaged): calls fail until it is
  // repaired. Once per distinct reason.
  std::function<void(std::string_view reason)> schema_refused;
  // A get or list answered: by a replica (`replica`, reason empty) or by the primary, with why it
  // did not go to a replica: "no_replica", "replica_down", "replica_lagging", "position_unknown".
  std::function<void(bool replica, std::string_view reason)> read_served;
  std::function<void()> position_queried;  // a flush-position query sent to the primary
  // A replica's connection: an attempt failed or an open one broke (`reason`), or it is back
  // (reason empty). `replica` is its description: no password.
  std::function<void(std::string_view replica, std::string_view reason)> replica_changed;
};

struct PostgresOptions {
  std::string database_url;  // a libpq connection string or URI
  // Replicas that gets and lists may read from (each host of a multi-host URL is one); empty:
  // none. Creates and Idempotency-Key records never go there.
  std::string read_url;
  std::size_t pool_size = 2;
  // Longest a call waits for a connection plus the database's answer; past it, unavailable.
  std::chrono::milliseconds call_timeout{5000};
  PostgresEvents events;
};

// describe_database_url: "user@host:port/dbname" for logs (never the password), or
// invalid_argument when libpq cannot parse `url` (the message names `flag`, not the URL).
[[nodiscard]] domain::Result<std::string> describe_database_url(
    const std::string& url, std::string_view flag = "--database-url");

// make_postgres_pet_repository: a repository on the database at `options.database_url`. It first
// tries, on the calling thread, to create or migrate the schema: at most `call_timeout` (5 s at
// most), less when `stop` is requested meanwhile. Errors: invalid_argument for a URL libpq cannot
// parse; internal for a schema this binary cannot use (newer than it knows, damaged, or not UTF-8).
// A database that does not answer in time, or whose migration lock another session holds, is no
// error: the adapter keeps trying on a thread of its own (reported through the events) and fails
// calls with unavailable until the schema is ready and a connection works.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetRepository>> make_postgres_pet_repository(
    const PostgresOptions& options, std::stop_token stop = {});

}  // namespace petstore::adapters::storage::postgres
