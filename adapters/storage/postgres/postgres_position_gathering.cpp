#include "adapters/storage/postgres/postgres_position_gathering.hpp"

#include <optional>
#include <utility>

namespace petstore::adapters::storage::postgres {

PositionGathering::PositionGathering(GatherRule rule, std::function<void()> send_query)
    : send_query_(std::move(send_query)), batches_(rule) {
  timer_.start();
}

PositionGathering::~PositionGathering() { close(); }

void PositionGathering::join(Work work) {
  bool send = false;
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    const auto deadline = work.deadline;
    send = batches_.join(std::move(work), now_locked(), deadline);
    wake = !send && arm_locked();
  }
  if (send) {
    send_query_();
  } else if (wake) {
    timer_.wake();
  }
}

std::vector<Work> PositionGathering::answered() {
  PositionBatches<Work>::Answered answered;
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    answered = batches_.answered(now_locked());
    wake = !answered.send_next && arm_locked();
  }
  if (answered.send_next) {
    send_query_();
  } else if (wake) {
    timer_.wake();
  }
  return std::move(answered.waiters);
}

void PositionGathering::close() {
  bool send = false;
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    send = batches_.due(now_locked());
  }
  timer_.stop();
  if (send) {
    send_query_();
  }
}

PositionGathering::Clock::time_point PositionGathering::now_locked() const {
  return closed_ ? Clock::time_point::max() : Clock::now();
}

bool PositionGathering::arm_locked() {
  const auto at = batches_.send_at();
  if (!at || *at >= timer_at_) {
    return false;  // nothing waits for the timer, or it wakes soon enough already
  }
  timer_at_ = *at;
  return true;
}

PositionGathering::Clock::time_point PositionGathering::on_timer() {
  bool send = false;
  std::optional<Clock::time_point> at;
  {
    const std::lock_guard lock(mutex_);
    send = batches_.due(now_locked());
    at = batches_.send_at();
    timer_at_ = at.value_or(Clock::time_point::max());
  }
  if (send) {
    send_query_();
  }
  return at.value_or(Clock::time_point::max());  // the loop wakes every tick anyway
}

}  // namespace petstore::adapters::storage::postgres
