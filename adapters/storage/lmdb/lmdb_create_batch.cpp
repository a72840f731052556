#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

// Expired idempotency entries pruned per batch beyond its own creates, so pruning outpaces
// insertion while each transaction stays bounded.
constexpr std::size_t extra_prune_budget = 16;

::lmdb::val as_val(std::string_view bytes) { return ::lmdb::val{bytes.data(), bytes.size()}; }

// older_than: whether `then` lies more than `retention_ns` before `now` (unsigned: no overflow).
bool older_than(std::int64_t then, std::int64_t now, std::uint64_t retention_ns) {
  return now > then &&
         static_cast<std::uint64_t>(now) - static_cast<std::uint64_t>(then) > retention_ns;
}

std::uint64_t nanoseconds_of(std::chrono::system_clock::duration retention) {
  const auto count = std::chrono::duration_cast<std::chrono::nanoseconds>(retention).count();
  return count > 0 ? static_cast<std::uint64_t>(count) : 0;
}

class BatchTxn {
 public:
  BatchTxn(MDB_txn* txn, const Databases& dbs)
      : txn_(txn), dbs_(dbs), next_id_(next_pet_id(txn, dbs)) {}

  domain::Result<ports::CreateOutcome> create(const ports::CreatePetCommand& command) {
    std::optional<std::string> key;
    if (command.idempotency) {
      key = idempotency_key(*command.idempotency);
      if (!key) {
        return domain::invalid_argument("idempotency_key", "longer than the store can index");
      }
      if (auto earlier = find_earlier(*key, command)) {
        return std::move(*earlier);
      }
    }
    constexpr auto max_id = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (next_id_ > max_id) {
      return domain::make_error(domain::ErrorCode::unavailable, "", "no pet ids are left");
    }
    const domain::PetId id{static_cast<std::int64_t>(next_id_)};
    // MDB_APPEND: the id is above every stored one, so the put goes to the last page directly
    // (LMDB refuses it, rather than misplace it, were the id not the highest).
    if (!put(txn_, dbs_.pets, pet_key(id), pet_record(command.pet), MDB_APPEND)) {
      return damaged_record();
    }
    put(txn_, dbs_.pets_by_status, status_key(command.pet.status, id), "");
    if (key) {
      const auto received_at = to_nanoseconds(command.received_at);
      put(txn_, dbs_.idempotency, *key, idempotency_record({id, received_at, command.pet}));
      put(txn_, dbs_.idempotency_by_time, idempotency_time_key(received_at, id), *key);
    }
    ++next_id_;
    return ports::CreateOutcome{domain::with_id(id, command.pet), true};
  }

  // finish: prunes a bounded number of idempotency entries older than `retention_ns` at `now`.
  void finish(std::int64_t now, std::uint64_t retention_ns, std::size_t prune_budget) {
    std::vector<std::pair<std::string, std::string>> expired;  // (time key, idempotency key)
    {
      auto cursor = ::lmdb::cursor::open(txn_, dbs_.idempotency_by_time);
      ::lmdb::val key;
      ::lmdb::val value;
      for (bool found = cursor.get(key, value, MDB_FIRST); found && expired.size() < prune_budget;
           found = cursor.get(key, value, MDB_NEXT)) {
        const auto then = decode_time_key(view(key));
        if (!then || !older_than(*then, now, retention_ns)) {
          break;
        }
        expired.emplace_back(view(key), view(value));
      }
    }  // a write transaction's cursor is closed before the commit
    for (const auto& [time_key, key] : expired) {
      ::lmdb::dbi_del(txn_, dbs_.idempotency_by_time, as_val(time_key));
      ::lmdb::val value;
      if (::lmdb::dbi_get(txn_, dbs_.idempotency, as_val(key), value)) {
        // The key may since have been reused for a newer create: only drop the entry it indexes.
        const auto record = decode_idempotency_record(view(value));
        if (!record || idempotency_time_key(record->received_at_ns, record->id) == time_key) {
          ::lmdb::dbi_del(txn_, dbs_.idempotency, as_val(key));
        }
      }
    }
  }

 private:
  // find_earlier: the earlier create's pet when `key` names an unexpired record.
  std::optional<domain::Result<ports::CreateOutcome>> find_earlier(
      const std::string& key, const ports::CreatePetCommand& command) {
    ::lmdb::val value;
    if (!::lmdb::dbi_get(txn_, dbs_.idempotency, as_val(key), value)) {
      return std::nullopt;
    }
    auto record = decode_idempotency_record(view(value));
    if (!record) {
      return domain::Result<ports::CreateOutcome>(record.error());
    }
    if (older_than(record->received_at_ns, to_nanoseconds(command.received_at),
                   nanoseconds_of(command.retention))) {
      // Expired: forgotten; the create goes ahead and overwrites the entry.
      const auto time_key = idempotency_time_key(record->received_at_ns, record->id);
      ::lmdb::dbi_del(txn_, dbs_.idempotency_by_time, as_val(time_key));
      return std::nullopt;
    }
    return ports::CreateOutcome{domain::with_id(record->id, std::move(record->pet)), false};
  }

  MDB_txn* txn_;
  const Databases& dbs_;
  std::uint64_t next_id_;  // the highest stored id + 1, kept in step with this batch's puts
};

}  // namespace

std::vector<domain::Result<ports::CreateOutcome>> commit_creates(
    Store& store, const std::vector<PendingCreate>& batch) {
  std::int64_t now = std::numeric_limits<std::int64_t>::min();
  std::uint64_t retention_ns = 0;  // the longest any create of the batch asks for
  for (const auto& pending : batch) {
    now = std::max(now, to_nanoseconds(pending.command.received_at));
    retention_ns = std::max(retention_ns, nanoseconds_of(pending.command.retention));
  }
  std::vector<domain::Result<ports::CreateOutcome>> results;
  auto committed = store.write([&](MDB_txn* txn) {
    results.clear();  // a retry after growing the map starts over
    BatchTxn writer(txn, store.databases());
    for (const auto& pending : batch) {
      results.push_back(writer.create(pending.command));
    }
    writer.finish(now, retention_ns, batch.size() + extra_prune_budget);
  });
  if (!committed) {
    results.assign(batch.size(), domain::Result<ports::CreateOutcome>(committed.error()));
  }
  return results;
}

}  // namespace petstore::adapters::storage::lmdb
