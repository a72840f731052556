// How the Router reads a path through the route table: percent-encoded segments are the
// segments they decode to, for routing and for deciding what authenticates first; the probes
// answer HEAD, and their 503s say when to try again; /metrics exists only when the service has
// metrics.

#include <string>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

class RouterPaths : public testing::Test {
 protected:
  RouterHarness router_;
};

TEST_F(RouterPaths, AnEncodedV1PathAuthenticatesFirstAndReachesItsOperation) {
  for (const std::string target : {"/v1/p%65ts", "/%761/pets", "/%76%31/%70%65%74%73"}) {
    EXPECT_EQ(router_.send(request("GET", target, std::nullopt)).status, 401U) << target;
    const HttpResponse listed = router_.send(request("GET", target));
    EXPECT_EQ(listed.status, 200U) << target;
    EXPECT_TRUE(has_v1_headers(listed)) << target;
  }
  const std::string digits = std::to_string(router_.create("Rex"));
  // The id's first digit percent-encoded: '1' is %31, '9' is %39.
  const std::string encoded_id = "%3" + digits.substr(0, 1) + digits.substr(1);
  EXPECT_EQ(router_.send(request("GET", "/v1/pets/" + encoded_id)).status, 200U);
}

TEST_F(RouterPaths, AnUnknownEncodedV1PathIsStillBehindTheKey) {
  const HttpResponse refused = router_.send(request("GET", "/%761/nothing", std::nullopt));
  EXPECT_EQ(refused.status, 401U);
  EXPECT_TRUE(has_v1_headers(refused));
  const HttpResponse missing = router_.send(request("GET", "/%761/nothing"));
  EXPECT_EQ(missing.status, 404U);
  EXPECT_TRUE(is_error_body(missing.body, 404, "not_found"));
}

TEST_F(RouterPaths, TheProbesAnswerHeadAndListItInAllow) {
  for (const std::string target : {"/healthz", "/readyz"}) {
    EXPECT_EQ(router_.send(request("HEAD", target, std::nullopt)).status, 200U) << target;
    const HttpResponse refused = router_.send(request("POST", target, std::nullopt));
    EXPECT_EQ(refused.status, 405U) << target;
    EXPECT_EQ(refused.header("Allow"), "GET, HEAD") << target;
  }
}

// Contract section 11: every 503 carries Retry-After, whole seconds, at least 1.
TEST_F(RouterPaths, ReadinessRefusalsSayWhenToTryAgain) {
  router_.set_ready(false);  // starting or draining
  for (const std::string method : {"GET", "HEAD"}) {
    const HttpResponse draining = router_.send(request(method, "/readyz", std::nullopt));
    EXPECT_EQ(draining.status, 503U) << method;
    EXPECT_TRUE(is_error_body(draining.body, 503, "unavailable")) << method;
    EXPECT_EQ(draining.header("Retry-After"), "1") << method;
    EXPECT_EQ(draining.header("Cache-Control"), "no-store") << method;
  }
  const RouterHarness storage_down(
      bootstrap::ServiceSettings{.storage_ready = [] { return false; }});
  const HttpResponse unavailable = storage_down.send(request("GET", "/readyz", std::nullopt));
  EXPECT_EQ(unavailable.status, 503U);
  EXPECT_NE(unavailable.body.find("the storage is unavailable"), std::string::npos);
  EXPECT_EQ(unavailable.header("Retry-After"), "1");
  EXPECT_FALSE(router_.send(request("GET", "/healthz", std::nullopt)).header("Retry-After"));
}

TEST_F(RouterPaths, MetricsIsNoPathWhenTheServiceHasNoMetrics) {
  const HttpResponse response = router_.send(request("GET", "/metrics", std::nullopt));
  EXPECT_EQ(response.status, 404U);
  EXPECT_TRUE(is_error_body(response.body, 404, "not_found"));
}

}  // namespace
}  // namespace petstore::tests
