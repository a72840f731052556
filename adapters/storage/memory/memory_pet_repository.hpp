#pragma once
// The in-memory PetRepository: pets and idempotency records live in the process and die with it.
// Thread-safe (reads share a lock, creates take it alone); create calls `done` on the caller's
// thread before it returns. list costs O(log n + limit) through a per-status index.

#include <memory>

#include "ports/pet_repository.hpp"

namespace petstore::adapters {

// make_memory_pet_repository: an empty repository whose first pet gets id 1.
[[nodiscard]] std::unique_ptr<ports::PetRepository> make_memory_pet_repository();

}  // namespace petstore::adapters
