#pragma once
// A create batch as one pipelined work: a transaction (BEGIN, its identity for a COMMIT whose
// answer is lost, one petstore.create_pets call, COMMIT without waiting for the flush), then a
// flush barrier (a synchronous commit that writes WAL).

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "adapters/storage/postgres/postgres_work.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// PendingCreate: a create waiting for the writer slot.
struct PendingCreate {
  ports::CreatePetCommand command;
  ports::PetRepository::CreateDone done;
  std::chrono::steady_clock::time_point deadline;
  std::chrono::steady_clock::time_point queued_at;
};

class CommitResolver;

// create_batch_work: the work for `batch` (above). Each `done` runs only after the barrier
// committed, so once the batch is flushed and on the synchronous standbys (or with the error that
// stopped the work), then `after` runs; when the connection is lost before the barrier's answer,
// `after` runs at once and `resolver` learns the outcome (and runs a barrier of its own) and
// answers the creates.
[[nodiscard]] Work create_batch_work(std::vector<PendingCreate> batch,
                                     std::function<void(std::size_t creates)> after,
                                     CommitResolver& resolver);

}  // namespace petstore::adapters::storage::postgres
