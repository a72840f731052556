#pragma once
// The LMDB PetArchive (export, import), also on a store a running service uses
// (docs/decisions/lmdb-two-processes.md). A read is one read transaction, a write one write.

#include <memory>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "ports/pet_archive.hpp"

namespace petstore::adapters::storage::lmdb {

// make_lmdb_pet_archive: the archive of the store in `options.data_dir`. Each call opens the store
// and closes it, so that a refused import leaves no trace and the archive never holds a second
// handle on an environment this process has open (LMDB forbids it). read_all needs an existing
// store (else unavailable); write_all creates one.
[[nodiscard]] std::unique_ptr<ports::PetArchive> make_lmdb_pet_archive(LmdbOptions options);

}  // namespace petstore::adapters::storage::lmdb
