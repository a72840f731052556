#include "adapters/storage/postgres/postgres_freshness.hpp"

#include <array>
#include <cstdio>

#include "adapters/storage/postgres/libpq.hpp"

namespace petstore::adapters::storage::postgres {

std::optional<Lsn> parse_lsn(std::string_view text) {
  // Each half is 1 to 8 hex digits.
  const auto slash = text.find('/');
  if (slash > 8 || text.size() - slash - 1 > 8) {  // npos included
    return std::nullopt;
  }
  const auto high = parse_whole<std::uint32_t>(text.substr(0, slash), 16);
  const auto low = parse_whole<std::uint32_t>(text.substr(slash + 1), 16);
  if (!high || !low) {
    return std::nullopt;
  }
  return (Lsn{*high} << 32U) | *low;
}

std::string format_lsn(Lsn lsn) {
  std::array<char, sizeof("FFFFFFFF/FFFFFFFF")> text{};
  (void)std::snprintf(text.data(), text.size(), "%X/%X", static_cast<std::uint32_t>(lsn >> 32U),
                      static_cast<std::uint32_t>(lsn));
  return text.data();
}

PositionGathering::PositionGathering(GatherRule rule, std::function<void()> send_query,
                                     std::function<void()> wake_loop)
    : send_query_(std::move(send_query)), wake_loop_(std::move(wake_loop)), batches_(rule) {}

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
  send_or_wake(send, wake);
}

std::vector<Work> PositionGathering::answered() {
  PositionBatches<Work>::Answered answered;
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    answered = batches_.answered(now_locked());
    wake = !answered.send_next && arm_locked();
  }
  send_or_wake(answered.send_next, wake);
  return std::move(answered.waiters);
}

void PositionGathering::close() {
  bool send = false;
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    send = batches_.due(now_locked());
  }
  send_or_wake(send, false);
}

PositionGathering::Clock::time_point PositionGathering::now_locked() const {
  return closed_ ? Clock::time_point::max() : Clock::now();
}

bool PositionGathering::arm_locked() {
  const auto at = batches_.send_at();
  if (!at || *at >= tick_at_) {
    return false;  // nothing waits for a tick, or the loop turns soon enough already
  }
  tick_at_ = *at;
  return true;
}

PositionGathering::Clock::time_point PositionGathering::next_tick() const {
  const std::lock_guard lock(mutex_);
  return batches_.send_at().value_or(Clock::time_point::max());
}

void PositionGathering::on_tick(Clock::time_point /*now*/) {
  bool send = false;
  {
    const std::lock_guard lock(mutex_);
    send = batches_.due(now_locked());
    tick_at_ = batches_.send_at().value_or(Clock::time_point::max());
  }
  send_or_wake(send, false);
}

}  // namespace petstore::adapters::storage::postgres
