#pragma once
// Router: the pure part of the HTTP adapter. It turns one request into its response by the
// contract's order of checks (section 2): authenticate, route, parameters, body. It does no I/O
// itself; the operations that need storage answer once the repository has completed.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/client_address.hpp"
#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/api/http_message.hpp"
#include "application/use_cases.hpp"

namespace petstore::adapters::http {

// RequestFacts: what logs and metrics say of a request, known once it is routed: the route
// template ("/v1/pets/{petId}") and operation id ("getPet"), each empty when there is none (no
// route matched; a method the route does not take), views into the route table (routes.hpp) that
// outlive any request; the client address (contract section 9); and the principal id and label
// of an accepted key (empty when none was), never the key.
struct RequestFacts {
  std::string_view route;
  std::string_view operation;
  std::string client_address;
  std::string principal;
  std::string key_label;
};

// Readiness: what /readyz reports. Not serving: starting or draining; storage unavailable: open,
// but no connection to the database works (PostgreSQL), so storage requests would be 503.
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

  // handle: answers `request` through `respond`, exactly once: before handle returns when the
  // answer needs no storage, else later, on whatever thread storage completes on. `request`
  // must stay valid until then. Returns what the request reached, known before it is answered,
  // so that even a response storage never gave (a timeout) is named by its operation.
  // Thread-safe.
  RequestFacts handle(const HttpRequest& request, Respond respond) const;

  // screen_head: for a request whose body has not been read (a client waiting for 100 Continue),
  // the refusal its head already earns by the same order of checks (401, 429, 415, ...), or
  // nullopt when only the body can decide. `head.body` is ignored. Thread-safe.
  [[nodiscard]] std::optional<HttpResponse> screen_head(const HttpRequest& head) const;

  // add_cors_headers: the CORS fields `response`, whatever gave it (the router, or the server's
  // own 503 when storage was too slow), owes the origin of `request` (cors_policy.hpp).
  // Thread-safe.
  void add_cors_headers(const HttpRequest& request, HttpResponse& response) const;

 private:
  struct Step;

  // route: the one routing step both handle() and screen_head() take: the target parsed and
  // matched against the route table, the client address found, the key checked under /v1.
  [[nodiscard]] Step route(const HttpRequest& request) const;

  const application::UseCases& use_cases_;
  RouterOptions options_;
};

}  // namespace petstore::adapters::http
