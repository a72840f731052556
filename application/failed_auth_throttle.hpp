#pragma once
// FailedAuthThrottle: limits failed authentications per client address with a token bucket, so
// that keys cannot be guessed at speed. A bucket holds `failures_per_minute` tokens and refills
// at that rate; each failure takes one. Successful requests never touch it. The table of
// addresses is bounded: past `max_addresses`, refilled buckets are forgotten first, then the
// least recently used. Thread-safe.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ports/clock.hpp"

namespace petstore::application {

class FailedAuthThrottle {
 public:
  static constexpr std::size_t default_max_addresses = 65'536;

  // REQUIRES: failures_per_minute >= 1, max_addresses >= 1.
  FailedAuthThrottle(const ports::Clock& clock, double failures_per_minute,
                     std::size_t max_addresses = default_max_addresses);

  // record_failure: takes a token from `client`'s bucket. Returns zero when there was one;
  // otherwise the whole seconds until one will be there, and takes nothing.
  [[nodiscard]] std::chrono::seconds record_failure(std::string_view client);

  [[nodiscard]] std::size_t tracked_addresses() const;

 private:
  struct Bucket {
    double tokens = 0;
    std::chrono::system_clock::time_point updated;
  };

  void refill(Bucket& bucket, std::chrono::system_clock::time_point now) const;
  void make_room(std::chrono::system_clock::time_point now);

  const ports::Clock& clock_;
  const double capacity_;
  const double tokens_per_second_;
  const std::size_t max_addresses_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace petstore::application
