#pragma once
// Router: the pure part of the HTTP adapter. It turns one request into its response by the
// contract's order of checks (section 2): authenticate, route, parameters, body. It does no I/O;
// only a create completes later, when storage has committed it.

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

  // handle: the response to `request` when it is known at once; otherwise nullopt, and a copy of
  // `respond` is called later with it, exactly once, on any thread. `request` must stay valid
  // until then. Thread-safe.
  [[nodiscard]] std::optional<HttpResponse> handle(const HttpRequest& request,
                                                   const Respond& respond) const;

  // screen_head: for a request whose body has not been read (a client waiting for 100 Continue),
  // the refusal its head already earns by the same order of checks (401, 429, 415, ...), or
  // nullopt when only the body can decide. `head.body` is ignored. Thread-safe.
  [[nodiscard]] std::optional<HttpResponse> screen_head(const HttpRequest& head) const;

 private:
  // dispatch: handle() when `respond` is set; screen_head() when it is null.
  [[nodiscard]] std::optional<HttpResponse> dispatch(const HttpRequest& request,
                                                     const Respond* respond) const;

  const application::UseCases& use_cases_;
  RouterOptions options_;
};

}  // namespace petstore::adapters::http
