#pragma once
// The statements the repository runs, and the decoding of their rows back into domain values
// (names and statuses re-validated: a row that fails is internal, as the port says).

#include <chrono>
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

// create_batch_work: one transaction for `batch`: BEGIN, its transaction's id and the counter's
// value (answered at once), one petstore.create_pets call for the whole batch (its idempotency
// records and a bounded prune of expired ones first, then the counter row's lock, the ids and the
// pets), COMMIT. Each `done` runs only after the COMMIT succeeded (or with the error that stopped
// the transaction), then `after` runs; when the connection is lost before the COMMIT's answer,
// `after` runs at once and `resolver` learns the outcome and answers the creates.
[[nodiscard]] Work create_batch_work(std::vector<PendingCreate> batch,
                                     std::function<void(std::size_t creates)> after,
                                     CommitResolver& resolver);

// decode_pet: the pet in columns 0-3 (id, name, category_id, status) of `row`, re-validated;
// internal ("a stored pet is damaged") when it fails.
[[nodiscard]] domain::Result<domain::Pet> decode_pet(const PGresult* result, int row);

[[nodiscard]] Work get_work(domain::PetId id, ports::PetRepository::GetDone done);
[[nodiscard]] Work list_work(const ports::PetQuery& query, ports::PetRepository::ListDone done);
// count_work: reads the count the counter row keeps: no scan.
[[nodiscard]] Work count_work(ports::PetRepository::CountDone done);

}  // namespace petstore::adapters::storage::postgres
