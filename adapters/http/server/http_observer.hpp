#pragma once
// HttpObserver: what the server tells its watchers (metrics, request logs, plugged in by
// bootstrap) about each connection and answered request. Called from any server thread,
// concurrently: implementations must be thread-safe and quick. The record never holds a key.
// ExchangeWatch times one request for it.

#include <chrono>
#include <cstddef>
#include <string_view>

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/router.hpp"

namespace petstore::adapters::http {

// ExchangeRecord: one answered request. `route` and `operation` come from the route table
// (routes.hpp), never the raw target, so their values are few and key-free; empty when none.
struct ExchangeRecord {
  std::string_view request_id;
  std::string_view trace_id;  // the request's W3C trace id (api/trace_context.hpp)
  std::string_view span_id;   // the service's span of it
  std::string_view method;
  std::string_view protocol;  // "HTTP/1.1", "HTTP/1.0" or "HTTP/2"
  std::string_view route;
  std::string_view operation;
  std::string_view client_address;  // contract section 9: behind a trusted proxy, not the peer
  std::string_view principal;       // the accepted key's principal id; empty when none
  std::string_view key_label;       // the accepted key's label; empty when none or unlabelled
  unsigned status = 0;
  std::chrono::nanoseconds duration{0};
  std::size_t bytes = 0;  // body bytes sent
  // fault: HttpResponse's fault (a failed call's 500 or 503); empty otherwise.
  std::string_view fault;
};

class HttpObserver {
 public:
  HttpObserver() = default;
  HttpObserver(const HttpObserver&) = delete;
  HttpObserver& operator=(const HttpObserver&) = delete;
  virtual ~HttpObserver() = default;

  virtual void connection_opened() = 0;
  virtual void connection_closed() = 0;
  // connection_failed: a connection ended by an unexpected exception (a bug, or out of memory).
  virtual void connection_failed() = 0;
  // request_started: a request has been read; request_finished follows once it is answered
  // (or the connection failed while answering it).
  virtual void request_started() = 0;
  virtual void request_finished(const ExchangeRecord& record) = 0;
  // accept_failing: accepting connections has begun to fail, for `reason` ("Too many open
  // files", most likely); the server retries every 50 ms and says so once per episode, not per
  // retry. accept_resumed follows when a connection is accepted again.
  virtual void accept_failing(std::string_view reason) = 0;
  virtual void accept_resumed() = 0;
};

// ExchangeWatch: tells the observer, if any, that a request started and how it ended. Lives on
// the session's coroutine frame (an HTTP/2 stream's).
class ExchangeWatch {
 public:
  // ExchangeWatch: `started` is now, as the caller read the clock.
  ExchangeWatch(HttpObserver* observer, std::chrono::steady_clock::time_point started)
      : observer_(observer), started_(started) {
    if (observer_ != nullptr) {
      observer_->request_started();
    }
  }

  // finished: `facts` as the router found them (refused before routing: the client address only).
  void finished(std::string_view request_id, const ports::TraceContext& trace,
                std::string_view method, std::string_view protocol, const RequestFacts& facts,
                const HttpResponse& sent, std::size_t bytes,
                std::chrono::steady_clock::time_point now) const {
    if (observer_ != nullptr) {
      observer_->request_finished(
          ExchangeRecord{request_id, trace.trace_id(), trace.span_id(), method, protocol,
                         facts.route, facts.operation, facts.client_address, facts.principal,
                         facts.key_label, sent.status, now - started_, bytes, sent.fault});
    }
  }

 private:
  HttpObserver* observer_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace petstore::adapters::http
