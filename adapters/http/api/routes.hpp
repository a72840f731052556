#pragma once
// The service's routes, each named once: its path template, the operation every method on it
// reaches (the OpenAPI operationId; operational paths get names of the same form) and whether it
// is under /v1. The methods a route answers, and so its Allow header, come from this table alone:
// a route that answers GET answers HEAD too (RFC 9110 section 9.3.2). The router dispatches by
// this table, and the names it gives a request are what logs and metrics labels show.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/url/decode_view.hpp>
#include <boost/url/segments_encoded_view.hpp>

namespace petstore::adapters::http {

// Endpoint: what a matched route is, for the router to switch on.
enum class Endpoint : std::uint8_t {
  pets,
  pet,
  store_orders,
  health,
  readiness,
  metrics,
  api_document,
  docs_page,
  docs_script,
};

struct Operation {
  std::string_view method;  // "GET"; empty marks an unused entry
  std::string_view id;      // "listPets"
};

struct Route {
  Endpoint endpoint;
  // Literal segments, and at most one {parameter} segment, which matches any non-empty segment.
  std::string_view path;
  // HEAD is never listed: a GET operation answers it (its status and headers, no body).
  std::array<Operation, 2> operations;
  // Under /v1: authenticated, and private to the key holder (contract section 2).
  bool under_v1;

  // operation: the operation `method` reaches on this route (HEAD reaches GET's), or nullptr
  // (405). Methods are case-sensitive.
  [[nodiscard]] const Operation* operation(std::string_view method) const;

  // allow: the methods this route answers, as a 405's Allow header lists them: those of
  // `operations` in order, HEAD right after GET ("GET, HEAD, POST").
  [[nodiscard]] std::string allow() const;
};

inline constexpr std::array<Route, 9> routes{{
    {Endpoint::pets, "/v1/pets", {{{"GET", "listPets"}, {"POST", "createPet"}}}, true},
    {Endpoint::pet, "/v1/pets/{petId}", {{{"GET", "getPet"}}}, true},
    {Endpoint::store_orders, "/v1/store/orders", {{{"GET", "listOrders"}}}, true},
    {Endpoint::health, "/healthz", {{{"GET", "getHealth"}}}, false},
    {Endpoint::readiness, "/readyz", {{{"GET", "getReadiness"}}}, false},
    {Endpoint::metrics, "/metrics", {{{"GET", "getMetrics"}}}, false},
    {Endpoint::api_document, "/openapi.json", {{{"GET", "getApiDocument"}}}, false},
    {Endpoint::docs_page, "/docs", {{{"GET", "getDocsPage"}}}, false},
    {Endpoint::docs_script, "/docs/redoc.standalone.js", {{{"GET", "getDocsScript"}}}, false},
}};

// RouteMatch: the route a path fits, and its {parameter} segment, decoded (empty when none).
struct RouteMatch {
  const Route* route = nullptr;
  std::string parameter;
};

// match_route: the route whose template fits `segments`, compared after percent-decoding
// (RFC 3986 section 6.2.2.2: "/v1/p%65ts" is "/v1/pets"), or nullopt.
[[nodiscard]] std::optional<RouteMatch> match_route(
    const boost::urls::segments_encoded_view& segments);

// is_plain_path: whether `path` (a target's part before any '?') is an absolute path of RFC 3986
// characters without percent-encoding and without a segment that starts with '.': a path whose
// segments are their own decoding, and which Boost.URL would take as they are.
[[nodiscard]] bool is_plain_path(std::string_view path);

// match_plain_path: match_route for a path that is_plain_path, matched on its bytes: the same
// answer as match_route on its parsed segments, without parsing it (the usual request's path).
[[nodiscard]] std::optional<RouteMatch> match_plain_path(std::string_view path);

// operation_ids: every distinct operation id of the table, in table order (the values of the
// metrics' operation label).
[[nodiscard]] std::vector<std::string_view> operation_ids();

}  // namespace petstore::adapters::http
