// export_pets and import_pets on an open Store: a cursor walk in one read transaction, and every
// put of an import in one write transaction.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_data_tools.hpp"
#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"

namespace petstore::adapters::lmdb_storage {
namespace {

// How often an import reports its progress.
constexpr std::size_t progress_every = 4096;

std::string_view view(const lmdb::val& value) { return {value.data(), value.size()}; }

bool put(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
         unsigned int flags) {
  lmdb::val k{key.data(), key.size()};
  lmdb::val v{value.data(), value.size()};
  return lmdb::dbi_put(txn, dbi, k, v, flags);
}

// last_stored_id: the highest id in the pets database, 0 when it is empty.
std::int64_t last_stored_id(MDB_txn* txn, MDB_dbi pets) {
  auto cursor = lmdb::cursor::open(txn, pets);
  lmdb::val key;
  lmdb::val value;
  if (!cursor.get(key, value, MDB_LAST)) {
    return 0;
  }
  const auto id = decode_pet_key(view(key));
  if (!id) {
    lmdb::error::raise("import", MDB_CORRUPTED);
  }
  return id->value;
}

std::uint64_t stored_next_id(MDB_txn* txn, MDB_dbi meta) {
  lmdb::val key{next_id_key.data(), next_id_key.size()};
  lmdb::val value;
  std::optional<std::uint64_t> next_id;
  if (lmdb::dbi_get(txn, meta, key, value)) {
    next_id = decode_u64(view(value));
  }
  if (!next_id || *next_id == 0) {
    lmdb::error::raise("import", MDB_CORRUPTED);  // Store::open checked it: damage since
  }
  return *next_id;
}

bool strictly_ascending(std::span<const domain::Pet> pets) {
  return std::adjacent_find(pets.begin(), pets.end(), [](const auto& a, const auto& b) {
           return a.id.value >= b.id.value;
         }) == pets.end();
}

}  // namespace

domain::Result<void> check_import_ids(std::span<const domain::Pet> pets) {
  for (const auto& pet : pets) {
    if (pet.id.value < domain::first_pet_id.value) {
      return domain::invalid_argument("id",
                                      "id must be at least 1, not " + std::to_string(pet.id.value));
    }
  }
  return {};
}

domain::Result<ExportReport> export_pets(const Store& store, const PetSink& sink) {
  const Databases& dbs = store.databases();
  return store.read_value<ExportReport>([&](MDB_txn* txn) -> domain::Result<ExportReport> {
    ExportReport report;
    auto cursor = lmdb::cursor::open(txn, dbs.pets);
    lmdb::val key;
    lmdb::val value;
    for (bool found = cursor.get(key, value, MDB_FIRST); found;
         found = cursor.get(key, value, MDB_NEXT)) {
      const auto id = decode_pet_key(view(key));
      auto pet = decode_pet_record(view(value));
      if (!id || !pet) {
        return damaged_record();
      }
      if (!sink(domain::with_id(*id, std::move(*pet)))) {
        report.complete = false;
        break;
      }
      ++report.pets;
    }
    return report;
  });
}

domain::Result<ImportReport> import_pets(Store& store, std::span<const domain::Pet> pets,
                                         const ImportCallbacks& callbacks) {
  if (auto checked = check_import_ids(pets); !checked) {
    return checked.error();
  }
  std::int64_t max_id = 0;
  for (const auto& pet : pets) {
    max_id = std::max(max_id, pet.id.value);
  }
  // Pets in ascending id above every stored one (an export of another store) are appended, which
  // fills B-tree pages completely and is much faster than inserting.
  const bool ascending = strictly_ascending(pets);
  const Databases& dbs = store.databases();
  std::optional<std::size_t> conflict;  // index into pets
  ImportReport report;
  auto written = store.write([&](MDB_txn* txn) {
    conflict.reset();  // a retry after growing the map starts over
    const std::uint64_t next_id = stored_next_id(txn, dbs.meta);
    const bool append =
        ascending && !pets.empty() && last_stored_id(txn, dbs.pets) < pets[0].id.value;
    const unsigned int flags = append ? MDB_APPEND : MDB_NOOVERWRITE;
    for (std::size_t i = 0; i < pets.size(); ++i) {
      const domain::Pet& pet = pets[i];
      const domain::NewPet body{pet.name, pet.category_id, pet.status};
      if (!put(txn, dbs.pets, pet_key(pet.id), pet_record(body), flags)) {
        conflict = i;
        lmdb::error::raise("import", MDB_KEYEXIST);  // aborts the transaction: nothing is stored
      }
      put(txn, dbs.pets_by_status, status_key(pet.status, pet.id), "", 0);
      if (callbacks.progress && (i + 1) % progress_every == 0) {
        callbacks.progress(i + 1);
      }
    }
    const std::uint64_t after_max = static_cast<std::uint64_t>(max_id) + 1;  // at most 2^63
    report = ImportReport{pets.size(), std::max(next_id, pets.empty() ? next_id : after_max)};
    if (report.next_id != next_id) {
      put(txn, dbs.meta, next_id_key, encode_u64(report.next_id), 0);
    }
    if (callbacks.progress) {
      callbacks.progress(pets.size());
    }
  });
  if (conflict) {
    if (callbacks.conflict) {
      callbacks.conflict(*conflict);
    }
    return domain::make_error(
        domain::ErrorCode::conflict, "id",
        "id " + std::to_string(pets[*conflict].id.value) + " is already in the store");
  }
  if (!written) {
    return written.error();
  }
  return report;
}

}  // namespace petstore::adapters::lmdb_storage
