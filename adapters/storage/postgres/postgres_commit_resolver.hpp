#pragma once
// CommitResolver: resolves, on the background worker and within the batch's deadline, create
// batches whose COMMIT's answer was lost (docs/decisions/commit-in-doubt.md). Only a batch certain
// not to be stored is sent again, so no create is stored twice.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/worker/background_worker.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

using worker::BackgroundWorker;

// BatchInDoubt: a batch whose COMMIT may or may not have happened.
struct BatchInDoubt {
  std::vector<PendingCreate> creates;
  // pg_current_xact_id() of its transaction; nullopt when that answer never came.
  std::optional<std::string> xid;
  // The counter's next_id read (without its lock) before the batch: a lower bound of the ids
  // the batch took; nullopt when no id was left.
  std::optional<std::int64_t> first_id_bound;
  std::chrono::steady_clock::time_point deadline;  // the earliest of its creates'
  std::string reason;                              // why its connection was lost
};

enum class CommitOutcome {
  committed,      // each create's outcome is known
  not_committed,  // the transaction aborted, or never reached the database's history
  unknown,        // not learned before the deadline (or the batch's id never came)
};

[[nodiscard]] constexpr const char* to_string(CommitOutcome outcome) {
  constexpr std::array<const char*, 3> names{"committed", "not_committed", "unknown"};
  return names.at(static_cast<std::size_t>(outcome));
}

struct LearnedOutcome {
  CommitOutcome outcome = CommitOutcome::unknown;
  std::vector<ports::CreateOutcome> creates;  // when committed: one per create, in order
  std::string detail;                         // how it was learned; no password
};

class CommitResolver {
 public:
  // Resend: queues a create again, as a new call.
  using Resend = std::function<void(PendingCreate)>;

  // `target`, `observer` and `worker` must outlive the resolver (no worker: every batch is
  // answered unavailable); `resend` runs on the worker's thread.
  CommitResolver(const ConnectTarget& target, PostgresObserver& observer, BackgroundWorker* worker,
                 Resend resend)
      : target_(target), observer_(observer), worker_(worker), resend_(std::move(resend)) {}
  CommitResolver(const CommitResolver&) = delete;
  CommitResolver& operator=(const CommitResolver&) = delete;

  // resolve: queues `batch`'s resolution; once the worker is closed, answers its creates
  // unavailable at once. A resolution the worker's close stops, or drops, answers them so too.
  void resolve(BatchInDoubt batch);

 private:
  void settle(BatchInDoubt batch, LearnedOutcome learned);

  const ConnectTarget& target_;
  PostgresObserver& observer_;
  BackgroundWorker* worker_;
  Resend resend_;
};

}  // namespace petstore::adapters::storage::postgres
