#pragma once
// The `petstore` PostgreSQL schema, versioned and migrated forward by every instance until it has
// succeeded once, under an advisory lock (docs/decisions/postgres-schema-migration.md).

#include <chrono>
#include <stop_token>

#include "adapters/storage/postgres/libpq.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// The schema version this binary writes and understands.
inline constexpr int schema_version = 5;

// migrate_schema: one attempt, on the calling thread, to create or migrate the schema in one
// transaction and to check that the database stores UTF-8, ending by `deadline` or soon after
// `stop`. Errors: unavailable when the database cannot be reached, answer in time or the lock is
// held elsewhere (try again later); internal when this binary cannot use it: a newer or damaged
// schema version, another encoding, or a migration the server refuses (permissions, say).
[[nodiscard]] domain::Result<void> migrate_schema(const ConnectTarget& target,
                                                  std::chrono::steady_clock::time_point deadline,
                                                  const std::stop_token& stop = {});

}  // namespace petstore::adapters::storage::postgres
