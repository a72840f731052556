#pragma once
// CorsPolicy: which other origins a browser page may call the API from (opt-in with
// --cors-origins; docs/decisions/cors.md). Origins compare as a browser sends them, so each
// configured one is serialised once, at start. With none configured no field is added and OPTIONS
// stays a 405. A request with two Origin fields counts as one from an unlisted origin.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/error.hpp"

namespace petstore::adapters::http {

struct HttpRequest;
struct HttpResponse;
struct Route;

class CorsPolicy {
 public:
  CorsPolicy() = default;  // no origin: CORS is off

  // parse: "https://app.example,http://127.0.0.1:3000" (spaces around commas allowed; empty:
  // none). invalid_argument naming the first entry that is not an origin and why.
  [[nodiscard]] static domain::Result<CorsPolicy> parse(std::string_view origins);

  [[nodiscard]] bool enabled() const noexcept { return !origins_.empty(); }

  // allows: whether `origin`, an Origin field's value as sent, is listed (exact comparison).
  [[nodiscard]] bool allows(std::string_view origin) const noexcept;

  // Beyond the CORS-safelisted ones: request headers a page may send, response headers it may read.
  static constexpr std::string_view allowed_headers =
      "Authorization, Content-Type, Idempotency-Key, traceparent, tracestate";
  static constexpr std::string_view exposed_headers =
      "Link, Location, Retry-After, X-Request-Id, Deprecation, Sunset, WWW-Authenticate, Allow, "
      "traceresponse";
  // max_age_seconds: ten minutes (Chromium caps at two hours): few preflights, yet a changed list
  // is seen soon.
  static constexpr unsigned max_age_seconds = 600;

 private:
  std::vector<std::string> origins_;  // serialised, as browsers send them
};

// serialise_origin: `text` ("HTTPS://App.Example:443") as a browser's Origin field names it
// ("https://app.example"), or invalid_argument saying what keeps it from being an origin (a
// scheme other than http or https, a path, a query, user info, a bad host or port, "*").
[[nodiscard]] domain::Result<std::string> serialise_origin(std::string_view text);

// answer_preflight: for a preflight (OPTIONS with Origin and Access-Control-Request-Method) to
// `route` from a listed origin, 204 with the route's methods, allowed_headers and max_age; no key
// is asked for (a browser sends none with a preflight). nullopt for any other request.
[[nodiscard]] std::optional<HttpResponse> answer_preflight(const CorsPolicy& policy,
                                                           const HttpRequest& request,
                                                           const Route& route);

// add_cors_headers: when `policy` is on, Vary: Origin on every response; for a listed Origin, also
// Access-Control-Allow-Origin and -Expose-Headers, errors included (a page may read a 401's body).
void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request, HttpResponse& response);

}  // namespace petstore::adapters::http
