// What an operator meets, over real sockets against the real binary (issue 15): behind a trusted
// proxy the throttle counts each forwarded client and ignores the header from other peers; HEAD
// on the probes; a quoted media-type parameter; an invalid_json that says where the JSON broke.

#include <signal.h>
#include <string>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/raw_http_request.hpp"

namespace petstore::tests {
namespace {

class CliOperatorTest : public KeyedCliTest {};

unsigned bad_key_from(std::uint16_t port, const std::string& forwarded_for) {
  return http_call(port, format_request("GET", "/v1/pets",
                                        {{"Authorization", "Bearer not-a-key"},
                                         {"X-Forwarded-For", forwarded_for},
                                         {"Connection", "close"}}))
      .status;
}

TEST_F(CliOperatorTest, BehindATrustedProxyTheThrottleCountsEachForwardedClient) {
  ServedPetstore served(petstore(
      serve_args(keys_, {"--trusted-proxies", "127.0.0.1/32", "--auth-failures-per-minute", "3"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  for (int attempt = 0; attempt < 3; ++attempt) {
    EXPECT_EQ(bad_key_from(served.port(), "203.0.113.9"), 401U);
  }
  EXPECT_EQ(bad_key_from(served.port(), "203.0.113.9"), 429U);
  EXPECT_EQ(bad_key_from(served.port(), "203.0.113.10"), 401U) << "another client, its own budget";
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  EXPECT_NE(served.child().captured_stdout().find(R"("client":"203.0.113.10")"), std::string::npos)
      << "the log records the forwarded client";
}

TEST_F(CliOperatorTest, FromAnUntrustedPeerXForwardedForIsIgnored) {
  ServedPetstore served(petstore(
      serve_args(keys_, {"--trusted-proxies", "10.0.0.0/8", "--auth-failures-per-minute", "3"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  for (int attempt = 0; attempt < 3; ++attempt) {
    EXPECT_EQ(bad_key_from(served.port(), "203.0.113." + std::to_string(attempt)), 401U);
  }
  EXPECT_EQ(bad_key_from(served.port(), "203.0.113.99"), 429U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliOperatorTest, ProbesAnswerHeadWithTheHeadOfTheirGet) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  for (const std::string path : {"/healthz", "/readyz"}) {
    RawConnection connection = RawConnection::connect("127.0.0.1:" + std::to_string(served.port()));
    ASSERT_TRUE(connection.send(format_request("HEAD", path, {{"Connection", "close"}})));
    const auto bytes = connection.read_until_closed(std::chrono::seconds(10));
    ASSERT_TRUE(bytes) << path;
    EXPECT_EQ(bytes->rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << *bytes;
    EXPECT_NE(bytes->find("\r\nContent-Length: "), std::string::npos) << *bytes;
    EXPECT_TRUE(bytes->ends_with("\r\n\r\n")) << "a HEAD response carries no body: " << *bytes;
  }
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliOperatorTest, AQuotedMediaTypeParameterAndAnErrorPosition) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const RawResponse created = http_call(
      served.port(), format_request("POST", "/v1/pets",
                                    {{"Authorization", "Bearer " + key_},
                                     {"Content-Type", R"(application/json; profile="a;b")"},
                                     {"Connection", "close"}},
                                    pet_json("Rex")));
  EXPECT_EQ(created.status, 201U) << created.body;
  const RawResponse broken =
      http_call(served.port(), "POST", "/v1/pets", key_, "{\n  \"name\": \"Rex\",\n  oops\n}");
  EXPECT_EQ(broken.status, 400U);
  EXPECT_NE(broken.body.find("line 3, column 3"), std::string::npos) << broken.body;
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests
