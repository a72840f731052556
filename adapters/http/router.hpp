#pragma once
// Router: the pure part of the HTTP adapter. It turns one request into its response by the
// contract's order of checks (section 2): authenticate, route, parameters, body. It does no I/O
// itself; the operations that need storage answer once the repository has completed.

#include <functional>
#include <optional>
#include <string>

#include "adapters/http/http_message.hpp"
#include "application/use_cases.hpp"

namespace petstore::adapters::http {

struct RouterOptions {
  // Answers /readyz: true while storage is open and the service is not draining.
  std::function<bool()> is_ready = [] { return true; };
  // Answers GET /metrics with Prometheus text (format 0.0.4) when set; unset, /metrics is 404.
  std::function<std::string()> metrics;
};

class Router {
 public:
  Router(const application::UseCases& use_cases, RouterOptions options);

  // handle: answers `request` through `respond`, exactly once: before handle returns when the
  // answer needs no storage, else later, on whatever thread storage completes on. `request`
  // must stay valid until then. Thread-safe.
  void handle(const HttpRequest& request, const Respond& respond) const;

  // screen_head: for a request whose body has not been read (a client waiting for 100 Continue),
  // the refusal its head already earns by the same order of checks (401, 429, 415, ...), or
  // nullopt when only the body can decide. `head.body` is ignored. Thread-safe.
  [[nodiscard]] std::optional<HttpResponse> screen_head(const HttpRequest& head) const;

 private:
  // dispatch: handle() when `respond` is set (an answer known at once is returned rather than
  // given to `respond`); screen_head() when it is null.
  [[nodiscard]] std::optional<HttpResponse> dispatch(const HttpRequest& request,
                                                     const Respond* respond) const;

  const application::UseCases& use_cases_;
  RouterOptions options_;
};

}  // namespace petstore::adapters::http
