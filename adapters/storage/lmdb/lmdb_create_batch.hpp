#pragma once
// The write side of the LMDB adapter: a batch of creates in ONE write transaction (one sync for
// the lot). Ids follow the highest stored id, read inside the transaction, never from a cache,
// so several processes on one store assign unique ids. A create that fails on its own (a damaged
// record) writes nothing and fails alone; the batch fails as a whole only with the commit.

#include <vector>

#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

struct PendingCreate {
  ports::CreatePetCommand command;
  ports::PetRepository::CreateDone done;
};

// commit_creates: one result per create of `batch`, in order, known to be committed and synced
// when successful. When the transaction cannot commit, every result is the commit's error
// (unavailable, or internal for damage) and nothing of the batch is stored.
[[nodiscard]] std::vector<domain::Result<ports::CreateOutcome>> commit_creates(
    Store& store, const std::vector<PendingCreate>& batch);

}  // namespace petstore::adapters::storage::lmdb
