#pragma once
// The repository's reads, and rows decoded back into domain values.

#include "adapters/storage/postgres/postgres_work.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// decode_pet: the pet in columns 0-3 (id, name, category_id, status) of `row`, re-validated;
// internal ("a stored pet is damaged") when it fails.
[[nodiscard]] domain::Result<domain::Pet> decode_pet(const PGresult* result, int row);

[[nodiscard]] Work get_work(domain::PetId id, ports::PetRepository::GetDone done);
[[nodiscard]] Work list_work(const ports::PetQuery& query, ports::PetRepository::ListDone done);
// count_work: reads the count the counter row keeps: no scan.
[[nodiscard]] Work count_work(ports::PetRepository::CountDone done);

}  // namespace petstore::adapters::storage::postgres
