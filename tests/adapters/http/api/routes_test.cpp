// The route table (adapters/http/api/routes.hpp): each Allow header lists exactly its route's
// methods, HEAD wherever GET (which answers it), the /v1 routes and operation ids are the API
// document's, and paths match by their decoded segments, with one non-empty {parameter}.

#include "adapters/http/api/routes.hpp"

#include <set>
#include <string>
#include <utility>

#include <boost/json.hpp>
#include <boost/url/parse.hpp>
#include <gtest/gtest.h>

#include "adapters/http/api/api_document.hpp"

namespace petstore::tests {
namespace {

using adapters::http::Endpoint;
using adapters::http::match_route;
using adapters::http::Operation;
using adapters::http::Route;
using adapters::http::routes;

std::optional<adapters::http::RouteMatch> match(std::string_view target) {
  const auto url = boost::urls::parse_origin_form(target);
  EXPECT_TRUE(url) << target;
  return match_route(url->encoded_segments());
}

TEST(Routes, AllowListsExactlyTheMethodsOfTheRouteAndHeadAfterGet) {
  for (const Route& route : routes) {
    std::string methods;
    for (const Operation& operation : route.operations) {
      EXPECT_NE(operation.method, "HEAD") << route.path << ": GET answers HEAD, never listed";
      if (!operation.method.empty()) {
        methods += (methods.empty() ? "" : ", ") + std::string(operation.method);
        methods += operation.method == "GET" ? ", HEAD" : "";
      }
    }
    EXPECT_EQ(route.allow(), methods) << route.path;
    EXPECT_NE(route.operation("GET"), nullptr) << route.path << ": every route answers GET";
  }
  const auto pets = match("/v1/pets");
  ASSERT_TRUE(pets);
  EXPECT_EQ(pets->route->allow(), "GET, HEAD, POST");
}

// The table and docs/openapi.json (whose paths are relative to its servers' /v1) name the same
// operations, each GET with its HEAD twin: a route added to one and not the other fails here.
TEST(Routes, TheV1RoutesAreTheApiDocumentsOperations) {
  std::set<std::pair<std::string, std::string>> documented;  // (method path, operationId)
  const auto document = boost::json::parse(adapters::http::openapi_json()).as_object();
  for (const auto& [path, item] : document.at("paths").as_object()) {
    for (const auto& [method, operation] : item.as_object()) {
      if (operation.is_object() && operation.as_object().contains("operationId")) {
        std::string upper(method);
        for (char& c : upper) {
          c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        documented.emplace(upper + " /v1" + std::string(path),
                           std::string(operation.at("operationId").as_string()));
      }
    }
  }
  std::set<std::pair<std::string, std::string>> routed;
  for (const Route& route : routes) {
    if (!route.under_v1) {
      EXPECT_FALSE(route.path.starts_with("/v1")) << route.path;
      continue;
    }
    EXPECT_TRUE(route.path.starts_with("/v1/")) << route.path;
    for (const Operation& operation : route.operations) {
      if (!operation.method.empty()) {
        routed.emplace(std::string(operation.method) + " " + std::string(route.path),
                       std::string(operation.id));
      }
      // HEAD is answered wherever GET is, and documented as GET's twin, "<id>Head".
      if (operation.method == "GET") {
        routed.emplace("HEAD " + std::string(route.path), std::string(operation.id) + "Head");
      }
    }
  }
  EXPECT_EQ(routed, documented);
}

TEST(Routes, OperationIdsAreDistinctAndListedOnce) {
  const auto ids = adapters::http::operation_ids();
  EXPECT_EQ(std::set<std::string_view>(ids.begin(), ids.end()).size(), ids.size());
  EXPECT_EQ(ids.front(), "listPets");
  EXPECT_NE(std::find(ids.begin(), ids.end(), "getHealth"), ids.end());
}

TEST(Routes, APathMatchesItsRouteAndGivesItsDecodedParameter) {
  const auto pet = match("/v1/pets/42");
  ASSERT_TRUE(pet);
  EXPECT_EQ(pet->route->endpoint, Endpoint::pet);
  EXPECT_EQ(pet->parameter, "42");
  const auto encoded = match("/v1/p%65ts/%34%32");
  ASSERT_TRUE(encoded);
  EXPECT_EQ(encoded->route->endpoint, Endpoint::pet);
  EXPECT_EQ(encoded->parameter, "42");
  const auto pets = match("/v1/pets?limit=5");
  ASSERT_TRUE(pets);
  EXPECT_EQ(pets->route->endpoint, Endpoint::pets);
  EXPECT_EQ(pets->parameter, "");
  const auto script = match("/docs/redoc.standalone.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->route->endpoint, Endpoint::docs_script);
}

TEST(Routes, APathThatFitsNoTemplateMatchesNothing) {
  for (const std::string_view target :
       {"/", "/v1", "/v1/", "/v1/pets/", "/v1/pets/1/2", "/v1/pets//1", "/v1/store", "/v2/pets",
        "/v1/pets%2F1", "/healthz/", "/HEALTHZ", "/docs/", "//healthz"}) {
    EXPECT_FALSE(match(target)) << target;
  }
}

// The router matches a plain path on its bytes, without Boost.URL: every path so matched gets the
// route and parameter its parsed, decoded segments get.
TEST(Routes, APlainPathMatchesAsItsParsedSegmentsDo) {
  for (const std::string_view path : {"/",
                                      "/v1",
                                      "/v1/",
                                      "/v1/pets",
                                      "/v1/pets/",
                                      "/v1/pets/42",
                                      "/v1/pets/1/2",
                                      "/v1/pets//1",
                                      "/v1/store",
                                      "/v1/store/orders",
                                      "/v2/pets",
                                      "/healthz",
                                      "/healthz/",
                                      "/HEALTHZ",
                                      "/docs",
                                      "/docs/",
                                      "//healthz",
                                      "/v1//pets",
                                      "/v1/pets/a:b@c!$&'()*+,;=-_~",
                                      "/openapi.json",
                                      "/docs/redoc.standalone.js",
                                      "/v1/pets/x.y",
                                      "/readyz",
                                      "/metrics",
                                      "/v1/pets/42/"}) {
    ASSERT_TRUE(adapters::http::is_plain_path(path)) << path;
    const auto plain = adapters::http::match_plain_path(path);
    const auto parsed = match(path);
    ASSERT_EQ(plain.has_value(), parsed.has_value()) << path;
    if (plain) {
      EXPECT_EQ(plain->route, parsed->route) << path;
      EXPECT_EQ(plain->parameter, parsed->parameter) << path;
    }
  }
}

// What is not plain goes to Boost.URL: percent-encoding, a dot segment (whose prefix Boost.URL's
// segments may hide), characters outside a path, and anything not starting with '/'.
TEST(Routes, APathWithSomethingToDecodeIsNotPlain) {
  for (const std::string_view path :
       {"", "v1/pets", "/v1/p%65ts", "/v1/pets/%34%32", "/./v1/pets", "/v1/./pets",
        "/v1/../v1/pets", "/.//v1", "/v1/pets?limit=1", "/v1/pets#x", "/v1/pets/a b",
        "/v1/pets/\x7f", "/v1/pets/[1]", "http://host/v1/pets", "*"}) {
    EXPECT_FALSE(adapters::http::is_plain_path(path)) << path;
  }
}

TEST(Routes, AnOperationIsFoundByItsExactMethod) {
  const auto pets = match("/v1/pets");
  ASSERT_TRUE(pets);
  ASSERT_NE(pets->route->operation("POST"), nullptr);
  EXPECT_EQ(pets->route->operation("POST")->id, "createPet");
  EXPECT_EQ(pets->route->operation("post"), nullptr);  // methods are case-sensitive
  EXPECT_EQ(pets->route->operation("DELETE"), nullptr);
  EXPECT_EQ(pets->route->operation(""), nullptr);
}

TEST(Routes, HeadReachesTheGetOperation) {
  for (const Route& route : routes) {
    EXPECT_EQ(route.operation("HEAD"), route.operation("GET")) << route.path;
  }
  const auto pets = match("/v1/pets");
  ASSERT_TRUE(pets);
  ASSERT_NE(pets->route->operation("HEAD"), nullptr);
  EXPECT_EQ(pets->route->operation("HEAD")->id, "listPets");
  EXPECT_EQ(pets->route->operation("head"), nullptr);
}

}  // namespace
}  // namespace petstore::tests
