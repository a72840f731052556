#pragma once
// The in-memory PetRepository: pets and idempotency records live in the process and die with it.
// Thread-safe (reads share a lock, creates take it alone); create calls `done` on the caller's
// thread before it returns. list costs O(log n + limit) through a per-status index. The same
// store is a PetArchive too (the data tools' port): a read holds the shared lock throughout, so
// it is one snapshot; a write checks every id, then stores them all, under the lock alone.

#include <memory>

#include "ports/pet_archive.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::memory {

// MemoryPetStore: one in-memory store, seen through both of its ports.
class MemoryPetStore : public ports::PetRepository, public ports::PetArchive {};

// make_memory_pet_store: an empty store whose first created pet gets id 1.
[[nodiscard]] std::unique_ptr<MemoryPetStore> make_memory_pet_store();

// make_memory_pet_repository: an empty repository whose first pet gets id 1.
[[nodiscard]] std::unique_ptr<ports::PetRepository> make_memory_pet_repository();

}  // namespace petstore::adapters::storage::memory
