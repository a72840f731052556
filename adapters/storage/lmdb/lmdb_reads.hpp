#pragma once
// The LMDB read side, in a read-only transaction the Store provides. A filtered page walks the
// (status, id) index (docs/decisions/lmdb-filtered-pages.md).

#include <cstdint>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_read_txn.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "domain/error.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

// next_pet_id: the id the next create gets: the highest stored id + 1 (2^63 when INT64_MAX is
// stored: none is left), or the first id of an empty store; may throw ::lmdb::error. Pets are
// never deleted, so this only grows, and inside a write transaction no other writer can move it.
[[nodiscard]] std::uint64_t next_pet_id(MDB_txn* txn, const Databases& dbs);

// read_pet: the pet with `id`, not_found when none; may throw ::lmdb::error.
[[nodiscard]] domain::Result<domain::Pet> read_pet(MDB_txn* txn, const Databases& dbs,
                                                   domain::PetId id);

// read_page: the page `query` describes, on `read`'s cursors; may throw ::lmdb::error.
[[nodiscard]] domain::Result<ports::PetPage> read_page(ReadTxn& read, const Databases& dbs,
                                                       const ports::PetQuery& query);

}  // namespace petstore::adapters::storage::lmdb
