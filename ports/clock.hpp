#pragma once
// Clock: the port the core reads time from, so that tests can fix it. Thread-safe.

#include <chrono>

namespace petstore::ports {

class Clock {
 public:
  Clock() = default;
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;
  virtual ~Clock() = default;

  [[nodiscard]] virtual std::chrono::system_clock::time_point now() const = 0;
};

}  // namespace petstore::ports
