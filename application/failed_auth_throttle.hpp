#pragma once
// FailedAuthThrottle: a token bucket per client of failed authentications (429 with Retry-After
// instead of 401); see docs/decisions/auth-failure-throttle.md. It does not limit guessing: a
// right key is checked first and never throttled. Clients count under the name `group` gives; the
// core reads no address. Past `max_addresses`, a refilled bucket is forgotten first, else the
// least recently updated one, either found in O(log n). Thread-safe.

#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ports/clock.hpp"

namespace petstore::application {

class FailedAuthThrottle {
 public:
  static constexpr std::size_t default_max_addresses = 65'536;

  // ClientGroup: the name `client`'s failures count under; null: its own name.
  using ClientGroup = std::string (*)(std::string_view client);

  // REQUIRES: failures_per_minute >= 1, max_addresses >= 1.
  FailedAuthThrottle(const ports::Clock& clock, double failures_per_minute,
                     std::size_t max_addresses = default_max_addresses,
                     ClientGroup group = nullptr);

  // record_failure: takes a token from `client`'s bucket and returns zero; with none there, takes
  // nothing and returns the whole seconds until one is.
  [[nodiscard]] std::chrono::seconds record_failure(std::string_view client);

  [[nodiscard]] std::size_t tracked_addresses() const;

 private:
  using TimePoint = std::chrono::system_clock::time_point;
  // Both indexes point at the keys of buckets_, whose nodes never move.
  using Recency = std::list<const std::string*>;                // least recently updated first
  using FullAt = std::multimap<TimePoint, const std::string*>;  // when each bucket is full again

  struct Bucket {
    double tokens = 0;
    TimePoint updated;
    Recency::iterator recency;
    FullAt::iterator full_at;
  };
  using Table = std::unordered_map<std::string, Bucket>;

  void refill(Bucket& bucket, TimePoint now) const;
  [[nodiscard]] TimePoint full_at(const Bucket& bucket) const;
  void evict_one(TimePoint now);

  const ports::Clock& clock_;
  const double capacity_;
  const double tokens_per_second_;
  const std::size_t max_addresses_;
  const ClientGroup group_;
  mutable std::mutex mutex_;
  Table buckets_;
  Recency recency_;
  FullAt full_at_;
};

}  // namespace petstore::application
