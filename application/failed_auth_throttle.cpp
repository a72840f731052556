#include "application/failed_auth_throttle.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace petstore::application {

FailedAuthThrottle::FailedAuthThrottle(const ports::Clock& clock, double failures_per_minute,
                                       std::size_t max_addresses, ClientGroup group)
    : clock_(clock),
      capacity_(failures_per_minute),
      tokens_per_second_(failures_per_minute / 60.0),
      max_addresses_(max_addresses),
      group_(group) {}

void FailedAuthThrottle::refill(Bucket& bucket, TimePoint now) const {
  const std::chrono::duration<double> elapsed = now - bucket.updated;
  if (elapsed.count() > 0) {
    bucket.tokens = std::min(capacity_, bucket.tokens + elapsed.count() * tokens_per_second_);
    bucket.updated = now;
  }
}

FailedAuthThrottle::TimePoint FailedAuthThrottle::full_at(const Bucket& bucket) const {
  const std::chrono::duration<double> to_full((capacity_ - bucket.tokens) / tokens_per_second_);
  return bucket.updated + std::chrono::ceil<TimePoint::duration>(to_full);
}

void FailedAuthThrottle::evict_one(TimePoint now) {
  const std::string* victim =
      full_at_.begin()->first <= now ? full_at_.begin()->second : recency_.front();
  const auto found = buckets_.find(*victim);
  recency_.erase(found->second.recency);
  full_at_.erase(found->second.full_at);
  buckets_.erase(found);
}

std::chrono::seconds FailedAuthThrottle::record_failure(std::string_view client) {
  std::string group = group_ != nullptr ? group_(client) : std::string(client);
  const auto now = clock_.now();
  const std::lock_guard lock(mutex_);
  auto found = buckets_.find(group);
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_addresses_) {
      evict_one(now);
    }
    found = buckets_.emplace(std::move(group), Bucket{capacity_, now, {}, {}}).first;
    found->second.recency = recency_.insert(recency_.end(), &found->first);
    found->second.full_at = full_at_.emplace(now, &found->first);
  }
  Bucket& bucket = found->second;
  refill(bucket, now);
  std::chrono::seconds wait(0);
  if (bucket.tokens >= 1.0) {
    bucket.tokens -= 1.0;
  } else {
    const double seconds = (1.0 - bucket.tokens) / tokens_per_second_;
    wait = std::chrono::seconds(static_cast<std::int64_t>(std::ceil(seconds)));
  }
  recency_.splice(recency_.end(), recency_, bucket.recency);
  full_at_.erase(bucket.full_at);
  bucket.full_at = full_at_.emplace(full_at(bucket), &found->first);
  return wait;
}

std::size_t FailedAuthThrottle::tracked_addresses() const {
  const std::lock_guard lock(mutex_);
  return buckets_.size();
}

}  // namespace petstore::application
