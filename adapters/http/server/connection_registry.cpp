#include "adapters/http/server/connection_registry.hpp"

namespace petstore::adapters::http {

bool ConnectionRegistry::add(const std::shared_ptr<ConnectionControl>& connection) {
  const std::lock_guard lock(mutex_);
  if (draining_.load(std::memory_order_relaxed) || connections_.size() >= max_) {
    return false;
  }
  connections_.insert(connection);
  return true;
}

void ConnectionRegistry::remove(const std::shared_ptr<ConnectionControl>& connection) {
  const std::lock_guard lock(mutex_);
  connections_.erase(connection);
  if (connections_.empty()) {
    emptied_.notify_all();
  }
}

std::vector<std::shared_ptr<ConnectionControl>> ConnectionRegistry::stop_admitting(bool refuse) {
  const std::lock_guard lock(mutex_);
  draining_.store(true, std::memory_order_release);
  if (refuse) {
    // Before the connections are asked: a request that starts waiting after its connection was
    // asked sees the flag and is refused by its own session.
    refusing_.store(true, std::memory_order_release);
  }
  return {connections_.begin(), connections_.end()};
}

void ConnectionRegistry::drain() {
  // Outside the lock: a connection that closes at once removes itself.
  for (const auto& connection : stop_admitting(false)) {
    connection->close_if_idle();
  }
}

void ConnectionRegistry::refuse_waiting_requests() {
  for (const auto& connection : stop_admitting(true)) {
    connection->refuse_waiting_request();
  }
}

void ConnectionRegistry::close_all() {
  for (const auto& connection : stop_admitting(false)) {
    connection->close_now();
  }
}

bool ConnectionRegistry::wait_until_empty(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return emptied_.wait_for(lock, timeout, [this] { return connections_.empty(); });
}

}  // namespace petstore::adapters::http
