#include "adapters/storage/postgres/postgres_pool_health.hpp"

namespace petstore::adapters::storage::postgres {

bool PoolHealth::take_probe(Clock::time_point now, bool serving) {
  if (probing_ || !serving || now < next_probe_at_) {
    return false;
  }
  probing_ = true;
  return true;
}

void PoolHealth::probe_answered(bool answered, Clock::time_point now) {
  probing_ = false;
  answering_ = answered;
  next_probe_at_ = now + probe_interval;
}

std::optional<bool> PoolHealth::change(bool connection_open, bool schema_ready, bool closing) {
  const bool available = connection_open && schema_ready && answering_ && !closing;
  if (available == reported_available_) {
    return std::nullopt;
  }
  reported_available_ = available;
  return available;
}

}  // namespace petstore::adapters::storage::postgres
