#pragma once
// ExchangeWatch: times one request and tells the HttpObserver when it started and how it ended
// (nothing when the server has no observer). Lives on the session's coroutine frame.

#include <chrono>
#include <cstddef>
#include <string_view>

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/router.hpp"
#include "adapters/http/server/http_observer.hpp"

namespace petstore::adapters::http {

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
