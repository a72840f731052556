// HEAD through the Router (contract section 11, RFC 9110 section 9.3.2): every route that answers
// GET answers HEAD with GET's status, headers and (for the session to measure, not to send) body,
// behind the same key; a 405's Allow lists HEAD wherever GET is allowed.

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/http/api/routes.hpp"
#include "adapters/metrics/metrics.hpp"
#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

Fields fields_of(const HttpResponse& response) {
  Fields fields;
  for (const auto& [name, value] : response.headers) {
    fields.emplace_back(name.text(), value);
  }
  return fields;
}

// answers_as_get: whether HEAD `target` gets what GET `target` gets. The router keeps the body:
// the session writes its length, never its bytes (tested over sockets).
testing::AssertionResult answers_as_get(const RouterHarness& router, const std::string& target,
                                        std::optional<std::string_view> key) {
  const HttpResponse get = router.send(request("GET", target, key));
  const HttpResponse head = router.send(request("HEAD", target, key));
  if (head.status != get.status || fields_of(head) != fields_of(get) || head.body != get.body) {
    return testing::AssertionFailure() << "HEAD " << target << " is " << head.status << " "
                                       << head.body << ", GET is " << get.status << " " << get.body;
  }
  return testing::AssertionSuccess() << get.status;
}

TEST(RouterHead, EveryRouteThatAnswersGetAnswersHeadAsGetWould) {
  const RouterHarness router;
  const std::string id = std::to_string(router.create("Rex"));
  router.create("Tom");
  const std::vector<std::string> targets = {"/v1/pets",
                                            "/v1/pets?limit=1",
                                            "/v1/pets?limit=0",
                                            "/v1/pets/" + id,
                                            "/v1/pets/999",
                                            "/v1/pets/x",
                                            "/v1/store/orders",
                                            "/healthz",
                                            "/readyz",
                                            "/openapi.json",
                                            "/docs",
                                            "/docs/redoc.standalone.js",
                                            "/metrics",
                                            "/nothing",
                                            "/v1/nothing"};
  for (const std::string& target : targets) {
    EXPECT_TRUE(answers_as_get(router, target, test_key_a)) << target;
  }
  // Spot checks that the comparison compared something.
  const HttpResponse page = router.send(request("HEAD", "/v1/pets?limit=1"));
  EXPECT_EQ(page.status, 200U);
  EXPECT_TRUE(page.header("Link"));
  EXPECT_TRUE(has_v1_headers(page));
  EXPECT_EQ(router.send(request("HEAD", "/v1/pets/" + id)).header("Deprecation"), "@1767225600");
  EXPECT_EQ(router.send(request("HEAD", "/v1/store/orders")).status, 501U);
}

TEST(RouterHead, HeadIsBehindTheKeyAsGetIs) {
  const RouterHarness router;
  for (const std::string target : {"/v1/pets", "/v1/pets/1", "/v1/store/orders"}) {
    EXPECT_TRUE(answers_as_get(router, target, std::nullopt)) << target;
    const HttpResponse refused = router.send(request("HEAD", target, std::nullopt));
    EXPECT_EQ(refused.status, 401U) << target;
    EXPECT_TRUE(refused.header("WWW-Authenticate")) << target;
    EXPECT_EQ(router.send(request("HEAD", target, "pst_unknown")).status, 401U) << target;
  }
}

TEST(RouterHead, HeadOnMetricsHasGetsStatusAndHeaders) {
  const auto ids = adapters::http::operation_ids();
  adapters::metrics::Metrics metrics({"1.0.0", "abc"}, ids);
  const RouterHarness router(bootstrap::ServiceSettings{.metrics = &metrics});
  const HttpResponse get = router.send(request("GET", "/metrics", std::nullopt));
  const HttpResponse head = router.send(request("HEAD", "/metrics", std::nullopt));
  EXPECT_EQ(get.status, 200U);
  EXPECT_EQ(head.status, 200U);
  EXPECT_EQ(fields_of(head), fields_of(get));
  EXPECT_FALSE(head.body.empty());  // its length is what Content-Length says
}

TEST(RouterHead, AllowListsHeadWhereverGetIsAllowed) {
  const RouterHarness router;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/v1/pets", "GET, HEAD, POST"},
      {"/v1/pets/1", "GET, HEAD"},
      {"/v1/store/orders", "GET, HEAD"},
      {"/healthz", "GET, HEAD"},
      {"/readyz", "GET, HEAD"},
      {"/openapi.json", "GET, HEAD"},
      {"/docs", "GET, HEAD"},
      {"/docs/redoc.standalone.js", "GET, HEAD"},
  };
  for (const auto& [target, allow] : cases) {
    for (const std::string method : {"PUT", "DELETE", "OPTIONS", "head", "PATCH"}) {
      const HttpResponse refused = router.send(request(method, target));
      EXPECT_EQ(refused.status, 405U) << method << " " << target;
      EXPECT_TRUE(is_error_body(refused.body, 405, "method_not_allowed")) << target;
      EXPECT_EQ(refused.header("Allow"), allow) << method << " " << target;
    }
  }
}

}  // namespace
}  // namespace petstore::tests
