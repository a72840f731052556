// The CORS policy as fields (cors_policy.hpp), without sockets: a listed origin's preflight is
// answered and its responses made readable; a request with two Origin fields has no origin, even
// when both are listed, so it gets only Vary and its preflight is routed as any other request.

#include <gtest/gtest.h>

#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::tests {
namespace {

using adapters::http::add_cors_headers;
using adapters::http::answer_preflight;
using adapters::http::CorsPolicy;
using adapters::http::HttpRequest;
using adapters::http::HttpResponse;

constexpr const char* page_origin = "http://127.0.0.1:3000";

CorsPolicy page_policy() { return CorsPolicy::parse(page_origin).value(); }

HttpRequest preflight_from(const char* origin) {
  HttpRequest request;
  request.method = "OPTIONS";
  request.target = "/v1/pets";
  request.origin = origin;
  request.access_control_request_method = "POST";
  return request;
}

TEST(CorsHeaders, AListedOriginIsAnsweredAndMayReadTheResponse) {
  const HttpRequest request = preflight_from(page_origin);
  const auto answer = answer_preflight(page_policy(), request, adapters::http::routes[0]);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 204U);
  EXPECT_EQ(answer->header("Access-Control-Allow-Methods"), "GET, HEAD, POST");
  HttpResponse response;
  add_cors_headers(page_policy(), request, response);
  EXPECT_EQ(response.header("Access-Control-Allow-Origin"), page_origin);
  EXPECT_EQ(response.header("Vary"), "Origin");
}

// The parser keeps the first Origin and notes a second (request_parser.hpp). A browser sends one,
// so two are no browser's: neither is believed, where the first used to decide.
TEST(CorsHeaders, TwoOriginFieldsAreNoOrigin) {
  HttpRequest request = preflight_from(page_origin);
  request.origin_repeated = true;
  EXPECT_FALSE(answer_preflight(page_policy(), request, adapters::http::routes[0]))
      << "routed as a request without a listed origin";
  HttpResponse response;
  add_cors_headers(page_policy(), request, response);
  EXPECT_EQ(response.header("Access-Control-Allow-Origin"), std::nullopt);
  EXPECT_EQ(response.header("Access-Control-Expose-Headers"), std::nullopt);
  EXPECT_EQ(response.header("Vary"), "Origin") << "a cache still keeps origins apart";
}

}  // namespace
}  // namespace petstore::tests
