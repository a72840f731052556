#pragma once
// The migration of pet records to schema version 3, which added a crc32c to each (lmdb_records):
// run by Store::open, in its write transaction, on a store of version 1 or 2.

#include <cstddef>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_store.hpp"

namespace petstore::adapters::storage::lmdb {

// migrate_pets_to_v3: rewrites every pet record of version 1 or 2 (format 1, no checksum) as
// version 3 writes it, each validated in full on the way. A record that fails is left as it was:
// version 3 reads it as damaged (internal), as version 2 did, and export names it. Returns how
// many records were rewritten. May throw ::lmdb::error (MDB_MAP_FULL: the records grew; the
// caller grows the map and runs the whole open again).
std::size_t migrate_pets_to_v3(MDB_txn* txn, const Databases& dbs);

}  // namespace petstore::adapters::storage::lmdb
