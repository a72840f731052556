#pragma once
// GroupCommitPacing: the "wait for company" rule of LMDB's writer thread and PostgreSQL's writer
// slot. After a batch of one the next goes at once; under load it waits for as many creates as the
// last held, at most as long as the last commit took, since that batch's clients are about to send
// again (docs/decisions/lmdb-group-commit.md). Pure: the caller passes the times in and guards it.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>

namespace petstore::adapters::storage::group_commit {

class GroupCommitPacing {
 public:
  using Clock = std::chrono::steady_clock;

  // `max_batch` (at least 1): the most creates one batch holds; `max_wait`: the longest a batch
  // waits for company, however slow the last commit was.
  GroupCommitPacing(std::size_t max_batch, Clock::duration max_wait)
      : max_batch_(std::max<std::size_t>(1, max_batch)),
        max_wait_(std::max(Clock::duration::zero(), max_wait)) {}

  // committed: a batch of `creates` was committed (or failed) in `took`, start to last answer.
  void committed(std::size_t creates, Clock::duration took) {
    last_batch_ = std::max<std::size_t>(1, creates);
    last_commit_ = std::max(Clock::duration::zero(), took);
  }

  // company: how many queued creates end the next batch's wait (1: it does not wait).
  [[nodiscard]] std::size_t company() const { return std::min(last_batch_, max_batch_); }

  // wait_until: until when `queued` creates wait for company, counted from `since` (the later of
  // the writer's freeing and the oldest one's arrival); nullopt when they go at once.
  [[nodiscard]] std::optional<Clock::time_point> wait_until(std::size_t queued,
                                                            Clock::time_point since) const {
    const auto wait = std::min(last_commit_, max_wait_);
    if (queued == 0 || queued >= company() || wait == Clock::duration::zero()) {
      return std::nullopt;  // a last batch of one (company 1) never waits
    }
    return since + wait;
  }

 private:
  std::size_t max_batch_;
  Clock::duration max_wait_;
  std::size_t last_batch_ = 1;
  Clock::duration last_commit_{};
};

}  // namespace petstore::adapters::storage::group_commit
