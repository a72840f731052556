// Failed authentications throttled per client address over real sockets: with a limit of five a
// minute, the sixth bad key gets 429 with Retry-After, while a good key from the same address and
// a bad key from another loopback address are unaffected; behind a trusted proxy the forwarded
// client counts, and respelling its address buys no fresh budget.

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

RawResponse get_pets(const ServerUnderTest& server, std::string_view key,
                     std::string_view source = "127.0.0.1") {
  RawConnection connection = RawConnection::connect(server.address(), 0, source);
  return connection.round_trip(format_request("GET", "/v1/pets", {{"Authorization", bearer(key)}}));
}

TEST(AuthThrottleOverSockets, TheSixthBadKeyInAMinuteIs429) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 5;
  ServerUnderTest server(setup);
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(get_pets(server, "not-a-key").status, 401U) << "attempt " << attempt;
  }
  const RawResponse throttled = get_pets(server, "not-a-key");
  EXPECT_EQ(throttled.status, 429U);
  EXPECT_TRUE(is_error_body(throttled.body, 429, "too_many_requests"));
  ASSERT_TRUE(throttled.header("Retry-After").has_value());
  EXPECT_EQ(throttled.header("Retry-After"), "12");  // five a minute: a token every 12 s
  EXPECT_EQ(throttled.header("Cache-Control"), "no-store");

  EXPECT_EQ(get_pets(server, test_key_a).status, 200U) << "a good key is never throttled";
  EXPECT_EQ(get_pets(server, "not-a-key", "127.0.0.2").status, 401U)
      << "another address has its own budget";
}

TEST(AuthThrottleOverSockets, MissingKeysCountAsFailures) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 2;
  ServerUnderTest server(setup);
  const std::string anonymous = format_request("GET", "/v1/pets");
  EXPECT_EQ(server.connect().round_trip(anonymous).status, 401U);
  EXPECT_EQ(server.connect().round_trip(anonymous).status, 401U);
  EXPECT_EQ(server.connect().round_trip(anonymous).status, 429U);
}

RawResponse get_pets_forwarded_for(const ServerUnderTest& server, std::string_view key,
                                   std::string_view forwarded_for) {
  RawConnection connection = server.connect();
  return connection.round_trip(format_request(
      "GET", "/v1/pets",
      {{"Authorization", bearer(key)}, {"X-Forwarded-For", std::string(forwarded_for)}}));
}

// Contract section 9: behind a trusted proxy every client shares the proxy's address, so the
// throttle counts the client X-Forwarded-For names; from any other peer that header is ignored.
TEST(AuthThrottleOverSockets, BehindATrustedProxyEachForwardedClientHasItsOwnBudget) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 5;
  setup.settings.trusted_proxies = *adapters::http::TrustedProxies::parse("127.0.0.1/32");
  ServerUnderTest server(setup);
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "203.0.113.9").status, 401U);
  }
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "203.0.113.9").status, 429U);
  // The forged entry a client puts first changes nothing: the proxy's own entry counts.
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "198.51.100.1, 203.0.113.9").status, 429U);
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "203.0.113.10").status, 401U)
      << "another client behind the same proxy has its own budget";
}

// Issue 28: "005.005.005.005" is no address (a dotted quad has one spelling), so the walk stops at
// the proxy; before, each spelling of 5.5.5.5 was a client of its own with a fresh budget.
TEST(AuthThrottleOverSockets, RespellingAForwardedAddressBuysNoFreshBudget) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 2;
  setup.settings.trusted_proxies = *adapters::http::TrustedProxies::parse("127.0.0.1/32");
  ServerUnderTest server(setup);
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "005.005.005.005").status, 401U);
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "05.5.5.5").status, 401U);
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "5.005.5.5").status, 429U);
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "5.5.5.5").status, 401U)
      << "the canonical spelling is a client of its own";
}

TEST(AuthThrottleOverSockets, FromAnUntrustedPeerXForwardedForIsIgnored) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 5;
  setup.settings.trusted_proxies = *adapters::http::TrustedProxies::parse("10.0.0.0/8");
  ServerUnderTest server(setup);
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(
        get_pets_forwarded_for(server, "not-a-key", "203.0.113." + std::to_string(attempt)).status,
        401U);
  }
  EXPECT_EQ(get_pets_forwarded_for(server, "not-a-key", "203.0.113.99").status, 429U)
      << "a client cannot buy a fresh budget by naming another address";
}

}  // namespace
}  // namespace petstore::tests
