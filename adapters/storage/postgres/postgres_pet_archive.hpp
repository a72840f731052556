#pragma once
// The PostgreSQL store seen by the data tools (`petstore export` and `petstore import` with
// `--storage postgres`): the PetArchive port on plain blocking libpq calls, since a data tool has
// one transfer to do and no HTTP to serve. A read is one REPEATABLE READ, READ ONLY transaction
// (one snapshot, however many services create meanwhile), fetched through a cursor; a write is one
// transaction that first locks the counter row (so creates of every instance wait for it, and ids
// stay in commit order), refuses any id already stored, and raises the counter past the highest
// written id.

#include <memory>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/error.hpp"
#include "ports/pet_archive.hpp"

namespace petstore::adapters::storage::postgres {

// make_postgres_pet_archive: the archive of the database at `options.database_url` (the pool
// size and events are not used; call_timeout bounds each connection attempt). Nothing is
// connected yet. Errors: invalid_argument for a URL libpq cannot parse. Its calls fail with
// unavailable when the database cannot be reached (or, for a read, holds no petstore schema) and
// internal for a schema newer than this binary knows; no message carries the password.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetArchive>> make_postgres_pet_archive(
    const PostgresOptions& options);

}  // namespace petstore::adapters::storage::postgres
