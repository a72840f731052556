#pragma once
// The LMDB adapter behind the PetArchive port, for `petstore export` and `petstore import` on a
// store that a running service may be using at the same time (LMDB is multi-process; see
// lmdb_pet_repository.hpp). A read is one read transaction; a write is one write transaction.

#include <memory>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "ports/pet_archive.hpp"

namespace petstore::adapters::storage::lmdb {

// make_lmdb_pet_archive: the archive of the store in `options.data_dir`. Nothing is opened until
// a call, and each call opens the store and closes it when done, so that an import refused by
// the core leaves no trace, and the archive never holds a second handle on an environment this
// process has open (which LMDB forbids). read_all needs an existing store (unavailable naming the
// data dir otherwise); write_all creates one where none is.
[[nodiscard]] std::unique_ptr<ports::PetArchive> make_lmdb_pet_archive(LmdbOptions options);

}  // namespace petstore::adapters::storage::lmdb
