#pragma once
// A create batch as one pipelined work (its statements, and why: postgres_create_batch.cpp).

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

// create_batch_work: the work for `batch`. Each `done` runs once the barrier committed (the batch
// flushed and on the synchronous standbys), or with the error that stopped the work; then `after`
// runs. A connection lost before the barrier's answer runs `after` at once and leaves the creates
// to `resolver`.
[[nodiscard]] Work create_batch_work(std::vector<PendingCreate> batch,
                                     std::function<void(std::size_t creates)> after,
                                     CommitResolver& resolver);

}  // namespace petstore::adapters::storage::postgres
