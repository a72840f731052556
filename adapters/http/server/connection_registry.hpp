#pragma once
// ConnectionRegistry: the set of open connections, so that the server can cap their number and,
// when draining, close the idle ones and wait for the rest. Thread-safe. Beside it what a
// connection's protocol is given (SessionContext) and shares with the registry's asks
// (ConnectionState). Free of Beast and Asio.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "adapters/http/api/router.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "adapters/http/server/http_server.hpp"

namespace petstore::adapters::http {

// ConnectionControl: what the registry may ask of a connection, from any thread.
class ConnectionControl {
 public:
  ConnectionControl() = default;
  ConnectionControl(const ConnectionControl&) = delete;
  ConnectionControl& operator=(const ConnectionControl&) = delete;
  virtual ~ConnectionControl() = default;

  // close_if_idle: closes the connection unless a request is being read or answered; such a
  // connection closes after its response because the registry is draining.
  virtual void close_if_idle() = 0;

  // close_now: closes the connection at once. REQUIRES: no thread runs its executor.
  virtual void close_now() = 0;

  // refuse_waiting_request: answers 503 to the request waiting for storage, if any.
  virtual void refuse_waiting_request() = 0;
};

class ConnectionRegistry {
 public:
  explicit ConnectionRegistry(std::size_t max_connections) : max_(max_connections) {}

  // add: registers `connection`; false, registering nothing, when full or draining.
  [[nodiscard]] bool add(const std::shared_ptr<ConnectionControl>& connection);
  void remove(const std::shared_ptr<ConnectionControl>& connection);

  [[nodiscard]] bool draining() const { return draining_.load(std::memory_order_acquire); }
  // refusing: whether a request about to wait for storage is to be refused instead.
  [[nodiscard]] bool refusing() const { return refusing_.load(std::memory_order_acquire); }

  // drain: refuses new connections from now on and closes the idle ones.
  void drain();

  // refuse_waiting_requests: drains, and has every request that waits for storage, now or
  // later, answered 503 at once (the drain ran out of time) instead of waiting on.
  void refuse_waiting_requests();

  // close_all: closes every connection at once. REQUIRES: no thread runs their executors.
  void close_all();

  // wait_until_empty: true once no connection is registered, false when `timeout` passes first.
  [[nodiscard]] bool wait_until_empty(std::chrono::milliseconds timeout);

 private:
  // stop_admitting: sets draining_ (and refusing_ after it, when `refuse`) under the lock, so that
  // add() registers no connection after this, and returns the connections open now.
  std::vector<std::shared_ptr<ConnectionControl>> stop_admitting(bool refuse);

  const std::size_t max_;
  mutable std::mutex mutex_;
  std::condition_variable emptied_;
  std::unordered_set<std::shared_ptr<ConnectionControl>> connections_;
  // Atomic: read by every request without the lock (docs/decisions/draining-flag-atomic.md);
  // written under it by stop_admitting.
  std::atomic<bool> draining_{false};
  std::atomic<bool> refusing_{false};  // set after draining_, once
};

class Http2Protocol;
class ResponseSlot;

struct SessionContext {
  const Router& router;
  const HttpLimits& limits;
  ConnectionRegistry& registry;
  HttpObserver* observer = nullptr;
  bool http2 = true;  // a plain connection may begin with HTTP/2's preface
};

// ConnectionState: shared with the registry's asks, on the connection's executor only.
struct ConnectionState {
  bool idle = true;
  std::string client_address;        // set once, before the session starts
  ResponseSlot* waiting = nullptr;   // the slot of the request waiting for storage, while it waits
  Http2Protocol* streams = nullptr;  // an HTTP/2 connection's, which takes the asks itself
};

}  // namespace petstore::adapters::http
