#include "adapters/storage/group_commit/group_commit_pacing.hpp"

#include <algorithm>

namespace petstore::adapters::storage::group_commit {

GroupCommitPacing::GroupCommitPacing(std::size_t max_batch, Clock::duration max_wait)
    : max_batch_(std::max<std::size_t>(1, max_batch)),
      max_wait_(std::max(Clock::duration::zero(), max_wait)) {}

void GroupCommitPacing::committed(std::size_t creates, Clock::duration took) {
  last_batch_ = std::max<std::size_t>(1, creates);
  last_commit_ = std::max(Clock::duration::zero(), took);
}

std::size_t GroupCommitPacing::company() const { return std::min(last_batch_, max_batch_); }

std::optional<GroupCommitPacing::Clock::time_point> GroupCommitPacing::wait_until(
    std::size_t queued, Clock::time_point since) const {
  const auto wait = std::min(last_commit_, max_wait_);
  if (queued == 0 || queued >= company() || wait == Clock::duration::zero()) {
    return std::nullopt;  // a last batch of one (company 1) never waits
  }
  return since + wait;
}

}  // namespace petstore::adapters::storage::group_commit
