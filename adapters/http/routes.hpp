#pragma once
// The service's routes, each named once: its path template, the operation every method on it
// reaches (the OpenAPI operationId; operational paths get names of the same form), and the Allow
// header that lists those methods. The router dispatches by this table, and the names it gives a
// request are what logs and metrics labels show.

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
  std::array<Operation, 2> operations;
  std::string_view allow;  // the methods of `operations`, as an Allow header lists them
  // Under /v1: authenticated, and private to the key holder (contract section 2).
  bool under_v1;

  // operation: the operation `method` reaches on this route, or nullptr (405).
  [[nodiscard]] const Operation* operation(std::string_view method) const;
};

inline constexpr std::array<Route, 9> routes{{
    {Endpoint::pets, "/v1/pets", {{{"GET", "listPets"}, {"POST", "createPet"}}}, "GET, POST", true},
    {Endpoint::pet, "/v1/pets/{petId}", {{{"GET", "getPet"}}}, "GET", true},
    {Endpoint::store_orders, "/v1/store/orders", {{{"GET", "listOrders"}}}, "GET", true},
    {Endpoint::health,
     "/healthz",
     {{{"GET", "getHealth"}, {"HEAD", "getHealth"}}},
     "GET, HEAD",
     false},
    {Endpoint::readiness,
     "/readyz",
     {{{"GET", "getReadiness"}, {"HEAD", "getReadiness"}}},
     "GET, HEAD",
     false},
    {Endpoint::metrics, "/metrics", {{{"GET", "getMetrics"}}}, "GET", false},
    {Endpoint::api_document, "/openapi.json", {{{"GET", "getApiDocument"}}}, "GET", false},
    {Endpoint::docs_page, "/docs", {{{"GET", "getDocsPage"}}}, "GET", false},
    {Endpoint::docs_script,
     "/docs/redoc.standalone.js",
     {{{"GET", "getDocsScript"}}},
     "GET",
     false},
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

// operation_ids: every distinct operation id of the table, in table order (the values of the
// metrics' operation label).
[[nodiscard]] std::vector<std::string_view> operation_ids();

}  // namespace petstore::adapters::http
