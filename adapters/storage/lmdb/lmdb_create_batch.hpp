#pragma once
// The LMDB write side: a batch of creates in one write transaction (one sync). Ids follow the
// highest stored id, read inside the transaction, so several processes on one store assign unique
// ids (docs/decisions/lmdb-two-processes.md).

#include <vector>

#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

struct PendingCreate {
  ports::CreatePetCommand command;
  ports::PetRepository::CreateDone done;
};

// commit_creates: one result per create of `batch`, in order, committed and synced when
// successful. A create that fails alone (a damaged record) writes nothing; a failed commit gives
// every create its error and stores nothing (docs/decisions/lmdb-failed-commit.md).
[[nodiscard]] std::vector<domain::Result<ports::CreateOutcome>> commit_creates(
    Store& store, const std::vector<PendingCreate>& batch);

}  // namespace petstore::adapters::storage::lmdb
