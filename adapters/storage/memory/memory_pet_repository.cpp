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
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>

namespace petstore::adapters::storage::memory {
namespace {

// StoreLock: a shared mutex that spins on try_lock a little before it sleeps. The memory store's
// sections last a few hundred nanoseconds, and a sleeping waiter wakes microseconds later
// (docs/benchmarks.md, "Sixteen cores (issue 37)").
class StoreLock {
 public:
  void lock() {
    spin_then([this] { return mutex_.try_lock(); }, [this] { mutex_.lock(); });
  }
  void unlock() { mutex_.unlock(); }
  void lock_shared() {
    spin_then([this] { return mutex_.try_lock_shared(); }, [this] { mutex_.lock_shared(); });
  }
  void unlock_shared() { mutex_.unlock_shared(); }

 private:
  // Tries this many times, a pause apart (a few microseconds in all), before it blocks.
  static constexpr int spins = 64;

  template <class Try, class Block>
  static void spin_then(Try attempt, Block block) {
    for (int i = 0; i < spins; ++i) {
      if (attempt()) {
        return;
      }
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    block();
  }

  std::shared_mutex mutex_;
};

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

// expired: whether a record stamped `then` may be forgotten at `now`; a clock gone back keeps it.
bool expired(TimePoint then, TimePoint now, std::chrono::system_clock::duration retention) {
  return now - then > retention;
}

std::size_t index_of(domain::PetStatus status) { return static_cast<std::size_t>(status); }

bool id_before(const domain::Pet& pet, std::int64_t id) { return pet.id.value < id; }

// page_of: the page `query` asks for from `sequence` (in id order; `pet_at` gives an element's
// pet). Looking one past the page tells has_more.
template <class Sequence, class PetAt>
ports::PetPage page_of(const Sequence& sequence, const ports::PetQuery& query, PetAt pet_at) {
  auto it = sequence.begin();
  if (query.after) {
    it = std::upper_bound(sequence.begin(), sequence.end(), query.after->value,
                          [&pet_at](std::int64_t after, const auto& element) {
                            return after < pet_at(element).id.value;
                          });
  }
  const auto limit = static_cast<std::size_t>(query.limit.value());
  ports::PetPage page;
  page.pets.reserve(limit);
  for (; it != sequence.end() && page.pets.size() < limit; ++it) {
    page.pets.push_back(pet_at(*it));
  }
  page.has_more = it != sequence.end();
  return page;
}

class MemoryPetRepository final : public ports::PetRepository {
 public:
  void create(ports::CreatePetCommand command, CreateDone done) override {
    if (done.expired(std::chrono::steady_clock::now())) {
      done(domain::make_error(domain::ErrorCode::unavailable, "",
                              "the create's deadline passed before it was stored"));
      return;
    }
    // Built before the lock, which covers only the key's record, the id and the append.
    domain::Pet stored = domain::with_id(domain::PetId{0}, std::move(command.pet));
    domain::Pet answer = stored;
    std::optional<domain::Pet> replayed;
    const auto assigned = [&]() -> domain::Result<domain::PetId> {
      const std::unique_lock lock(mutex_);
      return create_locked(command, std::move(stored), replayed);
    }();
    // Outside the lock: `done` may call back into the repository.
    if (!assigned) {
      done(assigned.error());
    } else if (replayed) {
      done(ports::CreateOutcome{std::move(*replayed), false});
    } else {
      answer.id = *assigned;
      done(ports::CreateOutcome{std::move(answer), true});
    }
  }

  void get(domain::PetId id, GetDone done) const override {
    done([&]() -> domain::Result<domain::Pet> {
      const std::shared_lock lock(mutex_);
      const domain::Pet* found = find_locked(id);
      if (found == nullptr) {
        return domain::make_error(ErrorCode::not_found, "", "no pet with this id");
      }
      return *found;
    }());
  }

  void list(ports::PetQuery query, ListDone done) const override {
    done([&] {
      const std::shared_lock lock(mutex_);
      if (!query.status) {
        return page_of(
            pets_, query, [](const domain::Pet& pet) -> const auto& { return pet; });
      }
      return page_of(
          by_status_[index_of(*query.status)], query,
          [](const domain::Pet* pet) -> const auto& { return *pet; });
    }());
  }

  void count(CountDone done) const override {
    done([&] {
      const std::shared_lock lock(mutex_);
      return static_cast<std::int64_t>(pets_.size());
    }());
  }

 private:
  // create_locked: stores `pet` under the next id, or finds the pet its idempotency key already
  // made (then `replayed` holds it and nothing is stored).
  domain::Result<domain::PetId> create_locked(const ports::CreatePetCommand& command,
                                              domain::Pet pet,
                                              std::optional<domain::Pet>& replayed) {
    forget_expired(command.received_at, command.retention);
    if (command.idempotency) {
      const auto seen =
          records_.find(ScopedKey{command.idempotency->scope, command.idempotency->key});
      if (seen != records_.end() &&
          !expired(seen->second.received_at, command.received_at, command.retention)) {
        replayed = *find_locked(seen->second.id);
        return seen->second.id;
      }
    }
    if (last_id_ == std::numeric_limits<std::int64_t>::max()) {
      return domain::make_error(ErrorCode::unavailable, "", "no pet ids are left");
    }
    pet.id = domain::PetId{last_id_ + 1};
    append_locked(std::move(pet));  // ids only grow: the new pet goes last
    const domain::PetId id = pets_.back().id;
    if (command.idempotency) {
      ScopedKey key{command.idempotency->scope, command.idempotency->key};
      stamps_.push_back(RecordStamp{command.received_at, key, id});
      records_.insert_or_assign(std::move(key), IdempotencyRecord{id, command.received_at});
    }
    return id;
  }

  [[nodiscard]] const domain::Pet* find_locked(domain::PetId id) const {
    const auto found = std::lower_bound(pets_.begin(), pets_.end(), id.value, id_before);
    return found != pets_.end() && found->id == id ? &*found : nullptr;
  }

  void append_locked(domain::Pet pet) {
    last_id_ = std::max(last_id_, pet.id.value);
    pets_.push_back(std::move(pet));
    by_status_[index_of(pets_.back().status)].push_back(&pets_.back());
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

  mutable StoreLock mutex_;
  std::int64_t last_id_ = domain::first_pet_id.value - 1;
  // The pets in id order (docs/decisions/memory-store-layout.md).
  std::deque<domain::Pet> pets_;
  // Per status, its pets in id order. Appending to a deque moves no element, so the pointers
  // stay valid.
  std::array<std::deque<const domain::Pet*>, domain::all_pet_statuses.size()> by_status_;
  std::map<ScopedKey, IdempotencyRecord> records_;
  std::deque<RecordStamp> stamps_;
};

}  // namespace

std::unique_ptr<ports::PetRepository> make_memory_pet_repository() {
  return std::make_unique<MemoryPetRepository>();
}

}  // namespace petstore::adapters::storage::memory
