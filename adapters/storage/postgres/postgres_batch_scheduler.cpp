#include "adapters/storage/postgres/postgres_batch_scheduler.hpp"

#include <algorithm>

namespace petstore::adapters::storage::postgres {

std::optional<BatchScheduler::Clock::time_point> BatchScheduler::wait_until() const {
  if (creates_.empty() || writer_busy_) {
    return std::nullopt;
  }
  return pacing_.wait_until(creates_.size(),
                            std::max(writer_freed_at_, creates_.front().queued_at));
}

bool BatchScheduler::ready(Clock::time_point now) const {
  if (creates_.empty() || writer_busy_) {
    return false;
  }
  const auto until = wait_until();
  return !until || now >= *until;
}

std::optional<Work> BatchScheduler::take(Clock::time_point now,
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

void BatchScheduler::freed(std::size_t creates, Clock::duration took, Clock::time_point now) {
  writer_busy_ = false;
  pacing_.committed(creates, took);
  writer_freed_at_ = now;
}

void BatchScheduler::expire(Clock::time_point now, Unanswered& expired) {
  take_due(creates_, now, expired, "no database connection was free within the timeout");
}

void BatchScheduler::take_all(Unanswered& taken, const char* reason) {
  take_due(creates_, Clock::time_point::max(), taken, reason);
}

}  // namespace petstore::adapters::storage::postgres
