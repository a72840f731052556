#include "adapters/storage/memory/memory_pet_repository.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "adapters/storage/memory/published_sequence.hpp"

namespace petstore::adapters::storage::memory {
namespace {

// CreateLock: a mutex that spins on try_lock a little before it sleeps. Only creates take it, and
// their sections last a few hundred nanoseconds, where a sleeping waiter wakes microseconds later
// (docs/benchmarks.md, "Sixteen cores (issue 37)").
class CreateLock {
 public:
  void lock() {
    for (int i = 0; i < spins; ++i) {
      if (mutex_.try_lock()) {
        return;
      }
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    mutex_.lock();
  }
  void unlock() { mutex_.unlock(); }

 private:
  // Tries this many times, a pause apart (a few microseconds in all), before it blocks.
  static constexpr int spins = 64;

  std::mutex mutex_;
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

// page_of: the page `query` asks for from `sequence` (in id order; `pet_at` gives an element's
// pet), as published when the read began. Looking one past the page tells has_more.
template <class Sequence, class PetAt>
ports::PetPage page_of(const Sequence& sequence, const ports::PetQuery& query, PetAt pet_at) {
  const std::size_t size = sequence.size();
  std::size_t next = 0;
  // After a cursor, bisection finds the first element past it.
  for (std::size_t count = query.after ? size : 0; count > 0;) {
    const std::size_t half = count / 2;
    if (pet_at(sequence[next + half]).id.value <= query.after->value) {
      next += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  const auto limit = static_cast<std::size_t>(query.limit.value());
  ports::PetPage page;
  page.pets.reserve(limit);
  while (next < size && page.pets.size() < limit) {
    const auto run = sequence.run_from(next, std::min(size, next + (limit - page.pets.size())));
    for (const auto& element : run) {
      page.pets.push_back(pet_at(element));
    }
    next += run.size();
  }
  page.has_more = next < size;
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
    // Built before the lock, which covers only the key's record, the id and the append; reads
    // take no lock.
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
      const domain::Pet* found = find(id);
      if (found == nullptr) {
        return domain::make_error(ErrorCode::not_found, "", "no pet with this id");
      }
      return *found;
    }());
  }

  void list(ports::PetQuery query, ListDone done) const override {
    done([&] {
      if (!query.status) {
        return page_of(
            pets_, query, [](const domain::Pet& pet) -> const auto& { return pet; });
      }
      return page_of(
          by_status_[index_of(*query.status)], query,
          [](const domain::Pet* pet) -> const auto& { return *pet; });
    }());
  }

  void count(CountDone done) const override { done(static_cast<std::int64_t>(pets_.size())); }

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
        replayed = *find(seen->second.id);
        return seen->second.id;
      }
    }
    // What may throw (bad_alloc) comes before the pet is published, so that a create that runs
    // out of memory stores nothing: the chunks it appends to, then the key's stamp and record.
    pets_.reserve_next();
    by_status_[index_of(pet.status)].reserve_next();
    // Ids are given one after another from the first (find relies on it): the next is the count's.
    const domain::PetId id{domain::first_pet_id.value + static_cast<std::int64_t>(pets_.size())};
    if (command.idempotency) {
      ScopedKey key{command.idempotency->scope, command.idempotency->key};
      stamps_.push_back(RecordStamp{command.received_at, key, id});
      try {
        records_.insert_or_assign(std::move(key), IdempotencyRecord{id, command.received_at});
      } catch (...) {
        stamps_.pop_back();  // the next create takes this id: no stamp of it may outlive this one
        throw;
      }
    }
    pet.id = id;
    append_locked(std::move(pet));  // ids only grow: the new pet goes last
    return id;
  }

  // find: the published pet with `id`. Ids are given one after another from first_pet_id, so a
  // pet's place is its id's distance from the first.
  [[nodiscard]] const domain::Pet* find(domain::PetId id) const {
    const std::size_t size = pets_.size();
    if (id.value < domain::first_pet_id.value ||
        static_cast<std::uint64_t>(id.value - domain::first_pet_id.value) >= size) {
      return nullptr;
    }
    return &pets_[static_cast<std::size_t>(id.value - domain::first_pet_id.value)];
  }

  // append_locked: publishes `pet` in the pets and its status's, where reserve_next made room:
  // it allocates nothing, so it cannot fail between the two.
  void append_locked(domain::Pet pet) {
    static_assert(std::is_nothrow_move_constructible_v<domain::Pet>);
    pets_.push_back(std::move(pet));
    // After the pet is published, so that a reader of its status finds it published.
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

  // Creates take it: it guards the next id, the keys' records and stamps, and lets one create
  // append at a time. Reads take no lock (docs/decisions/memory-store-layout.md).
  CreateLock mutex_;
  // The pets in id order.
  PublishedSequence<domain::Pet> pets_;
  // Per status, its pets in id order. A published pet never moves, so the pointers stay valid.
  std::array<PublishedSequence<const domain::Pet*>, domain::all_pet_statuses.size()> by_status_;
  std::map<ScopedKey, IdempotencyRecord> records_;
  std::deque<RecordStamp> stamps_;
};

}  // namespace

std::unique_ptr<ports::PetRepository> make_memory_pet_repository() {
  return std::make_unique<MemoryPetRepository>();
}

}  // namespace petstore::adapters::storage::memory
