#pragma once
// The adapter's schema: the `petstore` PostgreSQL schema, its version in
// petstore.schema_version, and the forward migrations that bring an older one up to date. Every
// instance runs migrate_schema until it has succeeded once; an advisory lock makes instances that
// start together migrate once, one after the other.

#include <chrono>
#include <stop_token>

#include "adapters/storage/postgres/libpq.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// The schema version this binary writes and understands.
inline constexpr int schema_version = 5;

// migrate_schema: one attempt, on the calling thread, to create or migrate the schema in one
// transaction and to check that the database stores UTF-8; it ends by `deadline`, or soon after
// `stop` is requested. The migration's advisory lock is only tried: while another session holds
// it, the attempt gives way. Errors: unavailable when the database cannot be reached, answer in
// time or the lock is taken (try again later); internal when this binary cannot use it: a newer
// or damaged schema version, another encoding, or a migration the server refuses (permissions,
// say). Messages are one line and carry no password.
[[nodiscard]] domain::Result<void> migrate_schema(const ConnectTarget& target,
                                                  std::chrono::steady_clock::time_point deadline,
                                                  const std::stop_token& stop = {});

}  // namespace petstore::adapters::storage::postgres
