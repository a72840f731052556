#include "adapters/storage/postgres/postgres_batch_rows.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

// Record: a keyed create's idempotency record, as the resolution read it.
struct Record {
  std::optional<domain::Pet> pet;  // the pet it names, when that pet is stored
  std::int64_t pet_id = 0;
  bool written_by_batch = false;
};

std::vector<std::optional<Record>> records_by_create(std::size_t creates, const PGresult* records) {
  std::vector<std::optional<Record>> by_create(creates);
  const int rows = records != nullptr ? PQntuples(records) : 0;
  for (int row = 0; row < rows; ++row) {
    const auto ordinal = std::stoull(PQgetvalue(records, row, 4));
    if (ordinal < 1 || ordinal > creates) {
      continue;
    }
    Record record;
    if (PQgetisnull(records, row, 0) == 0) {
      if (auto pet = decode_pet(records, row)) {
        record.pet = std::move(*pet);
      }
    }
    record.pet_id = std::stoll(PQgetvalue(records, row, 5));
    record.written_by_batch = std::string_view(PQgetvalue(records, row, 6)) == "t";
    by_create[ordinal - 1] = std::move(record);
  }
  return by_create;
}

}  // namespace

std::optional<std::vector<ports::CreateOutcome>> outcomes_from_rows(
    const std::vector<PendingCreate>& creates, const PGresult* pets, const PGresult* records,
    std::string& why) {
  const auto by_create = records_by_create(creates.size(), records);
  std::vector<ports::CreateOutcome> outcomes;
  outcomes.reserve(creates.size());
  // A key twice in the batch: its first create claimed the record, the later ones replay it.
  std::map<std::pair<std::string, std::string>, std::size_t> claimed_by;
  const int new_rows = pets != nullptr ? PQntuples(pets) : 0;
  int next_row = 0;
  std::int64_t previous_id = 0;
  for (std::size_t i = 0; i < creates.size(); ++i) {
    const auto& command = creates[i].command;
    const auto& record = by_create[i];
    if (command.idempotency) {
      if (!record) {
        why = "a key of the batch has no record";
        return std::nullopt;
      }
      if (!record->written_by_batch) {
        if (!record->pet) {
          why = "a replayed key names no stored pet";
          return std::nullopt;
        }
        outcomes.push_back(ports::CreateOutcome{*record->pet, false});
        continue;
      }
      const auto [first, claimed] =
          claimed_by.emplace(std::pair(command.idempotency->scope, command.idempotency->key), i);
      if (!claimed) {
        outcomes.push_back(ports::CreateOutcome{outcomes[first->second].pet, false});
        continue;
      }
    }
    // A new pet: the batch's next row, one id above the one before.
    if (next_row >= new_rows) {
      why = "the transaction wrote fewer pets than the batch created";
      return std::nullopt;
    }
    auto pet = decode_pet(pets, next_row);
    if (!pet || (next_row > 0 && pet->id.value != previous_id + 1) ||
        !(domain::NewPet{pet->name, pet->category_id, pet->status} == command.pet) ||
        (record && record->pet_id != pet->id.value)) {
      why = "the transaction's rows are not the batch's creates";
      return std::nullopt;
    }
    previous_id = pet->id.value;
    outcomes.push_back(ports::CreateOutcome{std::move(*pet), true});
    ++next_row;
  }
  if (next_row != new_rows) {
    why = "the transaction wrote more pets than the batch created";
    return std::nullopt;
  }
  return outcomes;
}

}  // namespace petstore::adapters::storage::postgres
