#pragma once
// The in-memory store, as PetRepository and PetArchive: nothing survives the process. Thread-safe;
// create calls `done` on the caller's thread before it returns. An archive read is one snapshot
// (shared lock throughout); a write checks every id, then stores them all, holding it exclusively.

#include <memory>

#include "ports/pet_archive.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::memory {

// MemoryPetStore: one in-memory store, seen through both of its ports.
class MemoryPetStore : public ports::PetRepository, public ports::PetArchive {};

// make_memory_pet_store, make_memory_pet_repository: an empty store; its first pet gets id 1.
[[nodiscard]] std::unique_ptr<MemoryPetStore> make_memory_pet_store();

[[nodiscard]] std::unique_ptr<ports::PetRepository> make_memory_pet_repository();

}  // namespace petstore::adapters::storage::memory
