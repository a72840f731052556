#pragma once
// The service's routes, each named once: path template, the operation each method reaches (the
// OpenAPI operationId, or a name of that form) and whether it is under /v1. A route's methods, and
// so its Allow header, come from this table alone; its names are what logs and metrics show.

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
  // HEAD is never listed: a GET operation answers it (RFC 9110 section 9.3.2).
  std::array<Operation, 2> operations;
  // Under /v1: authenticated, and private to the key holder (contract section 2).
  bool under_v1;

  // operation: what `method` (case-sensitive) reaches here, HEAD reaching GET's; nullptr: 405.
  [[nodiscard]] const Operation* operation(std::string_view method) const;

  // allow: a 405's Allow header, HEAD right after GET ("GET, HEAD, POST").
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

// is_plain_path: whether `path` (before any '?') is absolute, of RFC 3986 characters without
// percent-encoding or a segment starting with '.': its segments are their own decoding.
[[nodiscard]] bool is_plain_path(std::string_view path);

// match_plain_path: match_route's answer for a plain path, matched on its bytes without parsing.
[[nodiscard]] std::optional<RouteMatch> match_plain_path(std::string_view path);

// operation_ids: every distinct operation id, in table order (the metrics' operation label).
[[nodiscard]] std::vector<std::string_view> operation_ids();

}  // namespace petstore::adapters::http
