#pragma once
// PoolHealth: whether a pool is available (what /readyz says) and when it probes the database,
// traffic or not (docs/decisions/postgres-readiness-probe.md). After an unanswered probe the pool
// reports itself unavailable, though calls are still tried. Not thread-safe: the pool locks it.

#include <chrono>
#include <optional>

namespace petstore::adapters::storage::postgres {

class PoolHealth {
 public:
  using Clock = std::chrono::steady_clock;

  // /readyz turns 503 within about their sum of the database ceasing to answer.
  static constexpr auto probe_interval = std::chrono::seconds(1);
  static constexpr auto probe_timeout = std::chrono::seconds(2);

  // take_probe: true when a probe is due now on a pool that serves (`serving`); it is then out
  // until probe_answered.
  [[nodiscard]] bool take_probe(Clock::time_point now, bool serving) {
    if (probing_ || !serving || now < next_probe_at_) {
      return false;
    }
    probing_ = true;
    return true;
  }
  void probe_answered(bool answered, Clock::time_point now) {
    probing_ = false;
    answering_ = answered;
    next_probe_at_ = now + probe_interval;
  }
  // connected: a connection has just connected and answered its set-up: the database answers.
  void connected() { answering_ = true; }
  // change: the pool's availability, when it differs from the one last returned; else nullopt.
  [[nodiscard]] std::optional<bool> change(bool connection_open, bool schema_ready, bool closing) {
    const bool available = connection_open && schema_ready && answering_ && !closing;
    if (available == reported_available_) {
      return std::nullopt;
    }
    reported_available_ = available;
    return available;
  }

 private:
  bool answering_ = true;  // the last probe's verdict (true until one fails)
  bool probing_ = false;
  Clock::time_point next_probe_at_{};
  bool reported_available_ = false;
};

}  // namespace petstore::adapters::storage::postgres
