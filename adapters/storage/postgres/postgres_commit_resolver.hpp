#pragma once
// CommitResolver: resolves, on the background worker and within the batch's deadline, create
// batches whose COMMIT's answer was lost (docs/decisions/commit-in-doubt.md). Only a batch certain
// not to be stored is sent again, so no create is stored twice.

#include <functional>

#include "adapters/storage/postgres/postgres_commit_outcome.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/worker/background_worker.hpp"

namespace petstore::adapters::storage::postgres {

using worker::BackgroundWorker;

class CommitResolver {
 public:
  // Resend: queues a create again, as a new call.
  using Resend = std::function<void(PendingCreate)>;

  // `target`, `observer` and `worker` must outlive the resolver (no worker: every batch is
  // answered unavailable); `resend` runs on the worker's thread.
  CommitResolver(const ConnectTarget& target, PostgresObserver& observer, BackgroundWorker* worker,
                 Resend resend);
  CommitResolver(const CommitResolver&) = delete;
  CommitResolver& operator=(const CommitResolver&) = delete;
  ~CommitResolver() = default;

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
