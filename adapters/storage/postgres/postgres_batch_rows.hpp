#pragma once
// outcomes_from_rows: a committed create batch's outcomes rebuilt from what its transaction left
// in the database, as petstore.create_pets would have answered them, for a batch whose answer
// was lost. The rows prove themselves: a batch's new pets have consecutive ids in the order of
// its creates, each with the create's columns, and a keyed create's record names its pet.

#include <libpq-fe.h>
#include <optional>
#include <string>
#include <vector>

#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// outcomes_from_rows: each create's outcome, in order. `pets`: the pets the transaction wrote
// (id, name, category_id, status; ascending id), null when none can be. `records`: the keyed
// creates' records (the pet's id, name, category_id, status, or NULLs; then the create's 1-based
// ordinal, the record's pet_id, and whether the transaction wrote the record), null when the
// batch has no key. nullopt, with `why`, when the rows do not fit the batch: then they are
// another transaction's (its id reused by a promoted standby that never saw this one).
[[nodiscard]] std::optional<std::vector<ports::CreateOutcome>> outcomes_from_rows(
    const std::vector<PendingCreate>& creates, const PGresult* pets, const PGresult* records,
    std::string& why);

}  // namespace petstore::adapters::storage::postgres
