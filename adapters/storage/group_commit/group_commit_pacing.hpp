#pragma once
// GroupCommitPacing: the "wait for company" rule of a group-committing writer (LMDB's writer
// thread, PostgreSQL's writer slot). At low load no create waits: after a batch of one the next
// batch goes at once. Under load the next batch waits for as many creates as the last one held,
// at most as long as the last commit took (and never past max_wait): the clients that batch
// answered are about to send their next creates, and without the wait the writer would commit
// the one create already queued and theirs a whole commit later (batches of 1 and N-1 in turn;
// PostgreSQL's commit_delay answers the same problem). Measured in docs/benchmarks.md (R3).
// Pure: no clock, no lock, no I/O. The caller passes the times in and guards it.

#include <chrono>
#include <cstddef>
#include <optional>

namespace petstore::adapters::storage::group_commit {

class GroupCommitPacing {
 public:
  using Clock = std::chrono::steady_clock;

  // `max_batch` (at least 1): the most creates one batch holds; `max_wait`: the longest a batch
  // waits for company, however long the last commit took (a map growth, a stalled disk, a slow
  // network): a bound on what the wait adds to a create's latency.
  GroupCommitPacing(std::size_t max_batch, Clock::duration max_wait);

  // committed: a batch of `creates` was committed (or failed), and took `took` from its start to
  // its last answer: the time its clients need before they can send again.
  void committed(std::size_t creates, Clock::duration took);

  // company: how many queued creates end the next batch's wait (1: it does not wait).
  [[nodiscard]] std::size_t company() const;

  // wait_until: until when `queued` creates wait for company before they are committed, their
  // wait counted from `since` (the later of the writer's freeing and the oldest one's arrival);
  // nullopt when they go at once: none queued, company() of them or more, or no wait after the
  // last batch (one create, or a commit that took no time).
  [[nodiscard]] std::optional<Clock::time_point> wait_until(std::size_t queued,
                                                            Clock::time_point since) const;

 private:
  std::size_t max_batch_;
  Clock::duration max_wait_;
  std::size_t last_batch_ = 1;
  Clock::duration last_commit_{};
};

}  // namespace petstore::adapters::storage::group_commit
