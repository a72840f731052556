#pragma once
// The CORS policy (cors_policy.hpp) as HTTP fields, by the Fetch standard's CORS protocol: the
// answer to a preflight from a listed origin, and what every other response to one carries. With
// no origin configured nothing here adds a field, and OPTIONS stays a 405 as any unlisted method.
// A request with two Origin fields has no origin: it is answered as one from an unlisted origin.

#include <optional>

#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::adapters::http {

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
