#include "adapters/storage/memory/memory_pet_repository.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>

namespace petstore::adapters::storage::memory {
namespace {

using domain::ErrorCode;
using TimePoint = std::chrono::system_clock::time_point;

// ScopedKey: an idempotency key with the scope (API key) it was sent under.
using ScopedKey = std::pair<std::string, std::string>;

struct IdempotencyRecord {
  domain::PetId id;
  TimePoint received_at;
};

// RecordStamp: when a record was written, in the order records were written, so that expired
// ones are dropped from the front without a scan.
struct RecordStamp {
  TimePoint received_at;
  ScopedKey key;
  domain::PetId id;
};

// expired: whether a record stamped `then` may be forgotten at `now`. A clock that went back
// keeps the record.
bool expired(TimePoint then, TimePoint now, std::chrono::system_clock::duration retention) {
  return now - then > retention;
}

std::size_t index_of(domain::PetStatus status) { return static_cast<std::size_t>(status); }

const domain::Pet& pet_of(const domain::Pet& pet) { return pet; }
const domain::Pet& pet_of(const domain::Pet* pet) { return *pet; }

// page_of: the page `query` asks for from `index`, a map from id to pet ordered by id. Looking
// one past the page tells whether a later page has a match.
template <class Index>
ports::PetPage page_of(const Index& index, const ports::PetQuery& query) {
  auto it = query.after ? index.upper_bound(query.after->value) : index.begin();
  const auto limit = static_cast<std::size_t>(query.limit.value());
  ports::PetPage page;
  page.pets.reserve(limit);
  for (; it != index.end() && page.pets.size() < limit; ++it) {
    page.pets.push_back(pet_of(it->second));
  }
  page.has_more = it != index.end();
  return page;
}

class MemoryPetRepository final : public MemoryPetStore {
 public:
  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override {
    domain::Result<ports::CreateOutcome> result = [&] {
      const std::unique_lock lock(mutex_);
      return create_locked(command);
    }();
    done(std::move(result));  // outside the lock: `done` may call back into the repository
  }

  // PetRepository
  void get(domain::PetId id, GetDone done) const override {
    done([&]() -> domain::Result<domain::Pet> {
      const std::shared_lock lock(mutex_);
      const auto found = pets_.find(id.value);
      if (found == pets_.end()) {
        return domain::make_error(ErrorCode::not_found, "", "no pet with this id");
      }
      return found->second;
    }());
  }

  // PetRepository
  void list(ports::PetQuery query, ListDone done) const override {
    done([&] {
      const std::shared_lock lock(mutex_);
      return query.status ? page_of(by_status_[index_of(*query.status)], query)
                          : page_of(pets_, query);
    }());
  }

  // PetRepository
  void count(CountDone done) const override {
    done([&] {
      const std::shared_lock lock(mutex_);
      return static_cast<std::int64_t>(pets_.size());
    }());
  }

  // PetArchive
  domain::Result<ports::ArchiveReadReport> read_all(const PetSink& sink) const override {
    const std::shared_lock lock(mutex_);
    ports::ArchiveReadReport report;
    for (const auto& [id, pet] : pets_) {
      if (!sink(pet)) {
        report.complete = false;
        break;
      }
      ++report.pets;
    }
    return report;
  }

  // PetArchive
  domain::Result<ports::ArchiveWriteReport> write_all(std::span<const domain::Pet> pets,
                                                      const Progress& progress) override {
    const std::unique_lock lock(mutex_);
    ports::ArchiveWriteReport report;
    for (std::size_t i = 0; i < pets.size(); ++i) {
      if (pets_.contains(pets[i].id.value)) {
        report.conflict = i;
        return report;
      }
    }
    for (const auto& pet : pets) {
      const auto stored = pets_.emplace(pet.id.value, pet).first;
      by_status_[index_of(pet.status)].emplace(pet.id.value, &stored->second);
      last_id_ = std::max(last_id_, pet.id.value);
    }
    if (progress) {
      progress(pets.size());
    }
    report.next_id = static_cast<std::uint64_t>(last_id_) + 1;  // at most 2^63
    return report;
  }

 private:
  domain::Result<ports::CreateOutcome> create_locked(const ports::CreatePetCommand& command) {
    forget_expired(command.received_at, command.retention);
    if (command.idempotency) {
      const auto seen =
          records_.find(ScopedKey{command.idempotency->scope, command.idempotency->key});
      if (seen != records_.end() &&
          !expired(seen->second.received_at, command.received_at, command.retention)) {
        return ports::CreateOutcome{pets_.at(seen->second.id.value), false};
      }
    }
    if (last_id_ == std::numeric_limits<std::int64_t>::max()) {
      return domain::make_error(ErrorCode::unavailable, "", "no pet ids are left");
    }
    const domain::PetId id{last_id_ + 1};
    // Ids only grow, so each new pet goes last: the hint spares walking down a tree of a
    // million nodes, a cache miss per level.
    const auto stored = pets_.emplace_hint(pets_.end(), id.value, domain::with_id(id, command.pet));
    auto& same_status = by_status_[index_of(command.pet.status)];
    same_status.emplace_hint(same_status.end(), id.value, &stored->second);
    last_id_ = id.value;
    if (command.idempotency) {
      ScopedKey key{command.idempotency->scope, command.idempotency->key};
      stamps_.push_back(RecordStamp{command.received_at, key, id});
      records_.insert_or_assign(std::move(key), IdempotencyRecord{id, command.received_at});
    }
    return ports::CreateOutcome{stored->second, true};
  }

  // forget_expired: drops the records older than the retention at `now`, oldest first. A record
  // replaced since its stamp was written (same key, new id) is left alone.
  void forget_expired(TimePoint now, std::chrono::system_clock::duration retention) {
    while (!stamps_.empty() && expired(stamps_.front().received_at, now, retention)) {
      const auto record = records_.find(stamps_.front().key);
      if (record != records_.end() && record->second.id == stamps_.front().id) {
        records_.erase(record);
      }
      stamps_.pop_front();
    }
  }

  mutable std::shared_mutex mutex_;
  std::int64_t last_id_ = domain::first_pet_id.value - 1;
  std::map<std::int64_t, domain::Pet> pets_;
  // Per status, the pets of that status by id; the pointers stay valid as map nodes never move.
  std::array<std::map<std::int64_t, const domain::Pet*>, domain::all_pet_statuses.size()>
      by_status_;
  std::map<ScopedKey, IdempotencyRecord> records_;
  std::deque<RecordStamp> stamps_;
};

}  // namespace

std::unique_ptr<MemoryPetStore> make_memory_pet_store() {
  return std::make_unique<MemoryPetRepository>();
}

std::unique_ptr<ports::PetRepository> make_memory_pet_repository() {
  return make_memory_pet_store();
}

}  // namespace petstore::adapters::storage::memory
