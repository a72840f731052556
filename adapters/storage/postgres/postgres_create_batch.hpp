#pragma once
// Create batches: the creates waiting for PostgreSQL's writer slot (BatchScheduler), and each
// batch as one pipelined work (its statements, and why: postgres_create_batch.cpp).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "adapters/storage/group_commit/group_commit_pacing.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// PendingCreate: a create waiting for the writer slot.
struct PendingCreate {
  ports::CreatePetCommand command;
  ports::PetRepository::CreateDone done;
  std::chrono::steady_clock::time_point deadline;
  std::chrono::steady_clock::time_point queued_at;
};

class CommitResolver;

// create_batch_work: the work for `batch`. Each `done` runs once the barrier committed (the batch
// flushed and on the synchronous standbys), or with the error that stopped the work; then `after`
// runs. A connection lost before the barrier's answer runs `after` at once and leaves the creates
// to `resolver`.
[[nodiscard]] Work create_batch_work(std::vector<PendingCreate> batch,
                                     std::function<void(std::size_t creates)> after,
                                     CommitResolver& resolver);

// take_due: moves out of `queue` the calls whose deadline is not after `now` (all at
// time_point::max()), to be answered unavailable once the lock is let go.
template <class Call>
void take_due(std::deque<Call>& queue, std::chrono::steady_clock::time_point now,
              std::vector<Call>& expired) {
  for (auto it = queue.begin(); it != queue.end();) {
    if (it->deadline <= now) {
      expired.push_back(std::move(*it));
      it = queue.erase(it);
    } else {
      ++it;
    }
  }
}

// BatchScheduler: the creates waiting for the writer slot, and when they go: one batch at a time
// (the counter row would serialise concurrent ones anyway), paced by GroupCommitPacing
// (docs/decisions/postgres-group-commit.md). Not thread-safe: the pool calls it under its lock.
class BatchScheduler {
 public:
  using Clock = std::chrono::steady_clock;

  // Most creates one transaction commits, and the longest a batch waits for company.
  static constexpr std::size_t max_batch = 256;
  static constexpr std::chrono::milliseconds max_company_wait{10};

  // `observer` must outlive the scheduler (connection_waited is reported for each batched create).
  explicit BatchScheduler(PostgresObserver& observer) : observer_(observer) {}

  void queue(PendingCreate create) { creates_.push_back(std::move(create)); }

  // wait_until: until when the queued creates wait for company; nullopt when they do not (none
  // queued, the writer busy, the last batch alone, or enough of them queued).
  [[nodiscard]] std::optional<Clock::time_point> wait_until() const {
    if (creates_.empty() || writer_busy_) {
      return std::nullopt;
    }
    return pacing_.wait_until(creates_.size(),
                              std::max(writer_freed_at_, creates_.front().queued_at));
  }
  // ready: whether a batch is to go now: creates queued, the writer free, and no wait.
  [[nodiscard]] bool ready(Clock::time_point now) const {
    if (creates_.empty() || writer_busy_) {
      return false;
    }
    const auto until = wait_until();
    return !until || now >= *until;
  }

  // take: the next batch, which holds the writer slot until its transaction ends (then
  // `finished` runs with its size, on a loop's thread, without the pool's lock). The creates whose
  // deadline has passed go to `given_up` instead; nullopt, the slot still free, when all have.
  [[nodiscard]] std::optional<Work> take(Clock::time_point now,
                                         std::vector<PendingCreate>& given_up,
                                         std::function<void(std::size_t creates)> finished,
                                         CommitResolver& resolver) {
    std::vector<PendingCreate> batch;
    while (!creates_.empty() && batch.size() < max_batch) {
      observer_.connection_waited(now - creates_.front().queued_at);
      // A create whose caller has given up (answered 503 at the same deadline) is never sent.
      (creates_.front().deadline <= now ? given_up : batch).push_back(std::move(creates_.front()));
      creates_.pop_front();
    }
    if (batch.empty()) {
      return std::nullopt;
    }
    writer_busy_ = true;
    return create_batch_work(std::move(batch), std::move(finished), resolver);
  }
  // freed: the writer slot is free again at `now`; its batch held `creates` and took `took`.
  void freed(std::size_t creates, Clock::duration took, Clock::time_point now) {
    writer_busy_ = false;
    pacing_.committed(creates, took);
    writer_freed_at_ = now;
  }

  // give_up: take_due on the queued creates.
  void give_up(Clock::time_point now, std::vector<PendingCreate>& taken) {
    take_due(creates_, now, taken);
  }

 private:
  PostgresObserver& observer_;
  std::deque<PendingCreate> creates_;
  bool writer_busy_ = false;
  group_commit::GroupCommitPacing pacing_{max_batch, max_company_wait};
  Clock::time_point writer_freed_at_{};
};

}  // namespace petstore::adapters::storage::postgres
