#pragma once
// The in-memory store, as PetRepository: nothing survives the process. Thread-safe; create calls
// `done` on the caller's thread before it returns.

#include <memory>

#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::memory {

// make_memory_pet_repository: an empty store; its first pet gets id 1.
[[nodiscard]] std::unique_ptr<ports::PetRepository> make_memory_pet_repository();

}  // namespace petstore::adapters::storage::memory
