#pragma once
// FailedAuthThrottle: limits failed authentications per client with a token bucket: a client
// that keeps failing is answered 429 with Retry-After instead of 401. It does not limit guessing
// (a right key is checked first and never throttled; 256-bit keys are what defeat guessing). A
// bucket holds `failures_per_minute` tokens and refills at that rate; each failure takes one.
// Successful requests never touch it. Clients are counted under the name their grouping gives
// (bootstrap gives the HTTP adapter's client_address_group: an IPv6 /64 is one client); the core
// reads no address. The table of clients is bounded: past `max_addresses`, a refilled bucket is
// forgotten first, else the least recently updated one; either is found in O(log n). Thread-safe.

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

  // ClientGroup: the name under which the failures of `client` count; null counts each client
  // under its own name.
  using ClientGroup = std::string (*)(std::string_view client);

  // REQUIRES: failures_per_minute >= 1, max_addresses >= 1.
  FailedAuthThrottle(const ports::Clock& clock, double failures_per_minute,
                     std::size_t max_addresses = default_max_addresses,
                     ClientGroup group = nullptr);

  // record_failure: takes a token from the bucket of `client`'s group. Returns zero when there
  // was one; otherwise the whole seconds until one will be there, and takes nothing.
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
