#pragma once
// FakeClock: a Clock that stands still until a test moves it, so that what depends on time (the
// retention of idempotency keys) is tested without waiting and without the wall clock.
// Thread-safe: now() and advance() may be called from any thread.

#include <atomic>
#include <chrono>

#include "ports/clock.hpp"

namespace petstore::tests {

class FakeClock final : public ports::Clock {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  // 2026-01-01T00:00:00Z unless told otherwise: a fixed instant keeps runs reproducible.
  explicit FakeClock(TimePoint start = TimePoint(std::chrono::seconds(1767225600)))
      : ticks_(start.time_since_epoch().count()) {}

  // Clock
  [[nodiscard]] TimePoint now() const override {
    return TimePoint(std::chrono::system_clock::duration(ticks_.load()));
  }

  // advance: moves the clock forward (or back, with a negative `by`).
  void advance(std::chrono::system_clock::duration by) { ticks_.fetch_add(by.count()); }

 private:
  std::atomic<std::chrono::system_clock::rep> ticks_;
};

}  // namespace petstore::tests
