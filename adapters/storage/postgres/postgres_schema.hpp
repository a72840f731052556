#pragma once
// The adapter's schema: the `petstore` PostgreSQL schema, its version in
// petstore.schema_version, and the forward migrations that bring an older one up to date. Every
// instance runs migrate_schema when it first reaches the database; an advisory lock makes
// instances that start together migrate once, one after the other.

#include <string>

#include "adapters/storage/postgres/postgres_connection.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// The schema version this binary writes and understands.
inline constexpr int schema_version = 2;

// migrate_schema: connects (blocking, at most the target's timeout), creates or migrates the
// schema in one transaction and checks that the database stores UTF-8. Errors: unavailable when
// the database cannot be reached or drops the connection (try again later); internal when this
// binary cannot use it: a newer schema version, another encoding, or a migration the server
// refuses (permissions, say). Messages are one line and carry no password.
[[nodiscard]] domain::Result<void> migrate_schema(const ConnectTarget& target);

// one_line: libpq's `text` on one line, with `password` (when not empty) replaced by "***".
[[nodiscard]] std::string one_line(std::string text, const std::string& password);

}  // namespace petstore::adapters::storage::postgres
