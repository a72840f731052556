#include "adapters/storage/lmdb/lmdb_reads.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_records.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

std::string_view view(const ::lmdb::val& value) { return {value.data(), value.size()}; }

// first_id: the smallest id a page may hold, or nullopt when no id can follow `after`.
std::optional<domain::PetId> first_id(const std::optional<domain::PetId>& after) {
  if (!after || after->value < domain::first_pet_id.value) {
    return domain::first_pet_id;
  }
  if (after->value == std::numeric_limits<std::int64_t>::max()) {
    return std::nullopt;
  }
  return domain::PetId{after->value + 1};
}

domain::Result<ports::PetPage> read_all(MDB_txn* txn, const Databases& dbs, domain::PetId from,
                                        std::size_t limit) {
  ports::PetPage page;
  auto cursor = ::lmdb::cursor::open(txn, dbs.pets);
  const std::string start = pet_key(from);
  ::lmdb::val key{start.data(), start.size()};
  ::lmdb::val value;
  for (bool found = cursor.get(key, value, MDB_SET_RANGE); found;
       found = cursor.get(key, value, MDB_NEXT)) {
    if (page.pets.size() == limit) {
      page.has_more = true;
      break;
    }
    const auto id = decode_pet_key(view(key));
    auto pet = decode_pet_record(view(value), Validation::checksum);
    if (!id || !pet) {
      return damaged_record();
    }
    page.pets.push_back(domain::with_id(*id, std::move(*pet)));
  }
  return page;
}

domain::Result<ports::PetPage> read_by_status(MDB_txn* txn, const Databases& dbs,
                                              domain::PetStatus status, domain::PetId from,
                                              std::size_t limit) {
  ports::PetPage page;
  auto cursor = ::lmdb::cursor::open(txn, dbs.pets_by_status);
  const std::string start = status_key(status, from);
  ::lmdb::val key{start.data(), start.size()};
  ::lmdb::val value;
  for (bool found = cursor.get(key, value, MDB_SET_RANGE); found;
       found = cursor.get(key, value, MDB_NEXT)) {
    const std::string_view bytes = view(key);
    if (bytes.empty() || bytes.front() != static_cast<char>(status)) {
      break;  // past the last entry of this status
    }
    if (page.pets.size() == limit) {
      page.has_more = true;
      break;
    }
    const auto id = decode_pet_key(bytes.substr(1));
    if (!id) {
      return damaged_record();
    }
    auto pet = read_pet(txn, dbs, *id);
    if (!pet || pet->status != status) {
      // An index entry without its pet, or of another status, is damage, not absence.
      return pet || pet.error().code == domain::ErrorCode::not_found ? damaged_record()
                                                                     : pet.error();
    }
    page.pets.push_back(std::move(*pet));
  }
  return page;
}

}  // namespace

std::uint64_t next_pet_id(MDB_txn* txn, const Databases& dbs) {
  auto cursor = ::lmdb::cursor::open(txn, dbs.pets);
  ::lmdb::val key;
  ::lmdb::val value;
  if (!cursor.get(key, value, MDB_LAST)) {
    return static_cast<std::uint64_t>(domain::first_pet_id.value);
  }
  const auto last = decode_pet_key(view(key));
  if (!last || last->value < domain::first_pet_id.value) {
    ::lmdb::error::raise("next_pet_id", MDB_CORRUPTED);
  }
  return static_cast<std::uint64_t>(last->value) + 1;  // at most 2^63
}

domain::Result<domain::Pet> read_pet(MDB_txn* txn, const Databases& dbs, domain::PetId id) {
  if (id.value >= domain::first_pet_id.value) {
    const std::string bytes = pet_key(id);
    ::lmdb::val key{bytes.data(), bytes.size()};
    ::lmdb::val value;
    if (::lmdb::dbi_get(txn, dbs.pets, key, value)) {
      auto pet = decode_pet_record(view(value), Validation::checksum);
      if (!pet) {
        return pet.error();
      }
      return domain::with_id(id, std::move(*pet));
    }
  }
  return domain::make_error(domain::ErrorCode::not_found, "", "no pet with this id");
}

domain::Result<ports::PetPage> read_page(MDB_txn* txn, const Databases& dbs,
                                         const ports::PetQuery& query) {
  const auto from = first_id(query.after);
  if (!from) {
    return ports::PetPage{};
  }
  const auto limit = static_cast<std::size_t>(query.limit.value());
  return query.status ? read_by_status(txn, dbs, *query.status, *from, limit)
                      : read_all(txn, dbs, *from, limit);
}

}  // namespace petstore::adapters::storage::lmdb
