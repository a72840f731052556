#pragma once
// The PostgreSQL PetArchive (export, import) on blocking libpq calls: a data tool has one transfer
// to do and no HTTP to serve. A read is one REPEATABLE READ, READ ONLY transaction through a
// cursor; a write is one transaction that first locks the counter row (so creates of every
// instance wait), refuses any id already stored, and raises the counter past the highest one.

#include <memory>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/error.hpp"
#include "ports/pet_archive.hpp"

namespace petstore::adapters::storage::postgres {

// make_postgres_pet_archive: the archive of the database at `options.database_url`, not connected
// yet (call_timeout bounds each connection attempt); invalid_argument for a URL libpq cannot
// parse. Its calls fail with unavailable when the database cannot be reached (or, for a read,
// holds no petstore schema), internal for a schema newer than this binary knows.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetArchive>> make_postgres_pet_archive(
    const PostgresOptions& options);

}  // namespace petstore::adapters::storage::postgres
