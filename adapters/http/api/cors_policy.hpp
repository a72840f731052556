#pragma once
// CorsPolicy: which other origins a browser page may call the API from (CORS, opt-in with
// --cors-origins; none by default), and what such a page may send and read. Pure: an origin is
// compared as the string a browser sends in Origin (scheme://host[:port], lower case, no default
// port), so each configured one is parsed into that form once, at start. answer_preflight and
// add_cors_headers turn its answers into response fields, by the Fetch standard's CORS protocol.
// With no origin configured they add no field, and OPTIONS stays a 405 as any unlisted method. A
// request with two Origin fields has no origin: it is answered as one from an unlisted origin.

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

  // allows: whether `origin`, an Origin field's value as sent, is listed. Exact comparison: a
  // browser sends the serialised form parse() makes of the configured ones.
  [[nodiscard]] bool allows(std::string_view origin) const noexcept;

  // The request headers a page may send beyond the CORS-safelisted ones, and the response
  // headers it may read beyond those (Cache-Control, Content-Type, ...) every page may.
  static constexpr std::string_view allowed_headers =
      "Authorization, Content-Type, Idempotency-Key, traceparent, tracestate";
  static constexpr std::string_view exposed_headers =
      "Link, Location, Retry-After, X-Request-Id, Deprecation, Sunset, WWW-Authenticate, Allow, "
      "traceresponse";
  // How long a browser may keep a preflight's answer: ten minutes, within Chromium's two-hour cap,
  // so a page pays one preflight per path and method in a while, and a changed list is seen soon.
  static constexpr unsigned max_age_seconds = 600;

 private:
  std::vector<std::string> origins_;  // serialised, as browsers send them
};

// serialise_origin: `text` ("HTTPS://App.Example:443") as a browser's Origin field names it
// ("https://app.example"), or invalid_argument saying what keeps it from being an origin: a
// scheme other than http or https, a path (a trailing "/" included), a query, user info, a
// missing or malformed host, a port outside 1-65535, "*".
[[nodiscard]] domain::Result<std::string> serialise_origin(std::string_view text);

// answer_preflight: for a preflight (OPTIONS with Origin and Access-Control-Request-Method) to
// `route` from an origin `policy` lists, 204 with the route's methods (its Allow), the headers a
// page may send and how long the answer keeps; no key is asked for, since a browser sends none
// with a preflight. nullopt for any other request, which is then routed as usual.
// add_cors_headers adds the rest.
[[nodiscard]] std::optional<HttpResponse> answer_preflight(const CorsPolicy& policy,
                                                           const HttpRequest& request,
                                                           const Route& route);

// add_cors_headers: when `policy` is on, Vary: Origin on every response (a cache must not give
// one origin's answer to another); when `request`'s Origin is listed, also
// Access-Control-Allow-Origin with it and Access-Control-Expose-Headers, errors included, so the
// page can read a 401's body or a 503's Retry-After.
void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request, HttpResponse& response);

}  // namespace petstore::adapters::http
