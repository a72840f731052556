#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

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

// Page: steps a cursor from the first key at or after `start` (`first`: from the database's first
// key, a descent without key comparisons), pet by pet.
class Page {
 public:
  Page(MDB_cursor* cursor, const std::string& start, std::size_t limit, bool first = false)
      : cursor_(cursor),
        key_{start.size(), const_cast<char*>(start.data())},
        op_(first ? MDB_FIRST : MDB_SET_RANGE),
        room_(limit) {
    page_.pets.reserve(limit);
  }
  // next: moves to the next entry; false past the last. The first call finds the start.
  bool next() {
    const auto op = std::exchange(op_, MDB_NEXT);
    return ::lmdb::cursor_get(cursor_, &key_, &value_, op);
  }
  // at_limit: whether the page is full, asked once for each entry that would belong on it: true
  // sets has_more, false counts the entry as on the page.
  bool at_limit() {
    if (room_ == 0) {
      page_.has_more = true;
      return true;
    }
    --room_;
    return false;
  }
  [[nodiscard]] std::string_view key() const { return view(key_); }
  [[nodiscard]] std::string_view value() const { return view(value_); }
  std::vector<domain::Pet>& pets() { return page_.pets; }
  ports::PetPage take() { return std::move(page_); }

 private:
  MDB_cursor* cursor_;
  MDB_val key_;
  MDB_val value_{};
  MDB_cursor_op op_;
  std::size_t room_;  // how many more pets the page takes
  ports::PetPage page_;
};

// fill: steps `page` to its end, each record checked by `crc`. Flattened: a call a pet would cost
// more than the check (docs/decisions/lmdb-serving-path.md).
template <class Crc>
[[gnu::flatten]] domain::Result<ports::PetPage> fill(Page& page, const Crc& crc) {
  while (page.next() && !page.at_limit()) {
    const auto pet = checked_pet(page.key(), page.value(), crc);
    if (!pet) {
      return damaged_record();
    }
    page.pets().emplace_back(*pet);
  }
  return page.take();
}

domain::Result<ports::PetPage> read_all(ReadTxn& read, const Databases& dbs, domain::PetId from,
                                        std::size_t limit) {
  const std::string start = pet_key(from);
  // No stored key is below the first id's (append_checked_pet refuses one as damage).
  Page page(read.cursor(dbs.pets), start, limit, from == domain::first_pet_id);
#if defined(__x86_64__)
  if (crc32c_has_hardware()) {
    return fill(page, [](std::string_view bytes) noexcept { return crc32c_hardware(bytes); });
  }
#endif
  return fill(page, crc32c_for_this_cpu());
}

domain::Result<ports::PetPage> read_by_status(ReadTxn& read, const Databases& dbs,
                                              domain::PetStatus status, domain::PetId from,
                                              std::size_t limit) {
  const std::string start = status_key(status, from);
  Page page(read.cursor(dbs.pets_by_status), start, limit);
  while (page.next()) {
    const std::string_view bytes = page.key();
    if (bytes.empty() || bytes.front() != static_cast<char>(status)) {
      break;  // past the last entry of this status
    }
    if (page.at_limit()) {
      break;
    }
    const auto id = decode_pet_key(bytes.substr(1));
    if (!id) {
      return damaged_record();
    }
    auto pet = read_pet(read.txn(), dbs, *id);
    if (!pet || pet->status != status) {
      // An index entry without its pet, or of another status, is damage, not absence.
      return pet || pet.error().code == domain::ErrorCode::not_found ? damaged_record()
                                                                     : pet.error();
    }
    page.pets().push_back(std::move(*pet));
  }
  return page.take();
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
      const auto pet = checked_pet(bytes, view(value), crc32c_for_this_cpu());
      if (!pet) {
        return damaged_record();
      }
      return domain::Pet(*pet);
    }
  }
  return domain::make_error(domain::ErrorCode::not_found, "", "no pet with this id");
}

domain::Result<ports::PetPage> read_page(ReadTxn& read, const Databases& dbs,
                                         const ports::PetQuery& query) {
  const auto from = first_id(query.after);
  if (!from) {
    return ports::PetPage{};
  }
  const auto limit = static_cast<std::size_t>(query.limit.value());
  return query.status ? read_by_status(read, dbs, *query.status, *from, limit)
                      : read_all(read, dbs, *from, limit);
}

}  // namespace petstore::adapters::storage::lmdb
