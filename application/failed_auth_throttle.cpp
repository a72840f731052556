#include "application/failed_auth_throttle.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace petstore::application {

FailedAuthThrottle::FailedAuthThrottle(const ports::Clock& clock, double failures_per_minute,
                                       std::size_t max_addresses)
    : clock_(clock),
      capacity_(failures_per_minute),
      tokens_per_second_(failures_per_minute / 60.0),
      max_addresses_(max_addresses) {}

void FailedAuthThrottle::refill(Bucket& bucket, std::chrono::system_clock::time_point now) const {
  const std::chrono::duration<double> elapsed = now - bucket.updated;
  if (elapsed.count() > 0) {
    bucket.tokens = std::min(capacity_, bucket.tokens + elapsed.count() * tokens_per_second_);
    bucket.updated = now;
  }
}

void FailedAuthThrottle::make_room(std::chrono::system_clock::time_point now) {
  for (auto entry = buckets_.begin(); entry != buckets_.end();) {
    refill(entry->second, now);
    entry = entry->second.tokens >= capacity_ ? buckets_.erase(entry) : std::next(entry);
  }
  if (buckets_.size() >= max_addresses_) {
    const auto oldest = std::min_element(
        buckets_.begin(), buckets_.end(),
        [](const auto& a, const auto& b) { return a.second.updated < b.second.updated; });
    buckets_.erase(oldest);
  }
}

std::chrono::seconds FailedAuthThrottle::record_failure(std::string_view client) {
  const auto now = clock_.now();
  const std::lock_guard lock(mutex_);
  auto found = buckets_.find(std::string(client));
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_addresses_) {
      make_room(now);
    }
    found = buckets_.emplace(std::string(client), Bucket{capacity_, now}).first;
  }
  Bucket& bucket = found->second;
  refill(bucket, now);
  if (bucket.tokens >= 1.0) {
    bucket.tokens -= 1.0;
    return std::chrono::seconds(0);
  }
  const double wait = (1.0 - bucket.tokens) / tokens_per_second_;
  return std::chrono::seconds(static_cast<std::int64_t>(std::ceil(wait)));
}

std::size_t FailedAuthThrottle::tracked_addresses() const {
  const std::lock_guard lock(mutex_);
  return buckets_.size();
}

}  // namespace petstore::application
