#pragma once
// Router: the pure part of the HTTP adapter: one request into its response by the contract's
// order of checks (section 2): authenticate, route, parameters, body. No I/O of its own.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/client_address.hpp"
#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/api/http_message.hpp"
#include "application/use_cases.hpp"

namespace petstore::adapters::http {

// RequestFacts: what logs and metrics say of a request, known once it is routed. `route`
// ("/v1/pets/{petId}") and `operation` ("getPet") are empty when none matched, and view the route
// table (routes.hpp), which outlives any request. The principal's id and label, never the key.
struct RequestFacts {
  std::string_view route;
  std::string_view operation;
  std::string client_address;
  std::string principal;
  std::string key_label;
};

// Readiness: what /readyz reports. storage_unavailable: no database connection works (PostgreSQL).
enum class Readiness { ready, not_serving, storage_unavailable };

struct RouterOptions {
  std::function<Readiness()> readiness = [] { return Readiness::ready; };
  // Answers GET /metrics with Prometheus text (format 0.0.4) when set; unset, /metrics is 404.
  std::function<std::string()> metrics;
  // Peers whose X-Forwarded-For names the client (contract section 9); none by default.
  TrustedProxies trusted_proxies{};
  // Origins whose pages may call the API from a browser (CORS); none by default.
  CorsPolicy cors{};
};

class Router {
 public:
  Router(const application::UseCases& use_cases, RouterOptions options);

  // handle: answers `request` through `respond`, exactly once: at once when no storage is needed,
  // else later, on storage's thread; `request` must stay valid until then. Returns the facts
  // before the answer, so that even a timed-out request is named by its operation. Thread-safe.
  RequestFacts handle(const HttpRequest& request, Respond respond) const;

  // screen_head: for a client waiting for 100 Continue, the refusal its head already earns by the
  // same order of checks, or nullopt when only the body can decide. Thread-safe.
  [[nodiscard]] std::optional<HttpResponse> screen_head(const HttpRequest& head) const;

  // add_cors_headers: the CORS fields any `response` (the server's own 503 too) owes the origin
  // of `request` (cors_policy.hpp). Thread-safe.
  void add_cors_headers(const HttpRequest& request, HttpResponse& response) const;

 private:
  struct Step;

  // route: the step handle() and screen_head() share: target matched, client found, key checked.
  [[nodiscard]] Step route(const HttpRequest& request) const;

  const application::UseCases& use_cases_;
  RouterOptions options_;
};

}  // namespace petstore::adapters::http
