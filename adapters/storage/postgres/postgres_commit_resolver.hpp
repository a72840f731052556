#pragma once
// CommitResolver: resolves create batches whose COMMIT's answer was lost with their connection,
// each on a thread of its own (rare: only a lost connection makes one) within the batch's
// deadline: committed, each create is answered with its pet; not committed, each create whose
// deadline has not passed is sent again (one certain not to be stored cannot be stored twice),
// the others are answered unavailable; unknown, unavailable (a retry with the create's
// idempotency key is safe). Each resolution is reported through commit_resolved.

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

#include "adapters/storage/postgres/postgres_commit_outcome.hpp"
#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"

namespace petstore::adapters::storage::postgres {

class CommitResolver {
 public:
  // Resend: queues a create again, as a new call.
  using Resend = std::function<void(PendingCreate)>;

  // `target` and `observer` must outlive the resolver; `resend` runs on a resolution's thread.
  CommitResolver(const ConnectTarget& target, PostgresObserver& observer, Resend resend);
  CommitResolver(const CommitResolver&) = delete;
  CommitResolver& operator=(const CommitResolver&) = delete;
  ~CommitResolver();  // close()s

  // resolve: starts resolving `batch`; once closed, answers its creates unavailable at once.
  void resolve(BatchInDoubt batch);
  // close: stops the resolutions under way (their creates are answered unavailable), waits for
  // their threads (a poll slice) and refuses later ones.
  void close();

 private:
  struct Running {
    std::jthread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  void settle(BatchInDoubt batch, LearnedOutcome learned);

  const ConnectTarget& target_;
  PostgresObserver& observer_;
  Resend resend_;
  std::mutex mutex_;
  bool closed_ = false;
  std::list<Running> running_;
};

}  // namespace petstore::adapters::storage::postgres
