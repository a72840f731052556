// What a request's head alone decides, over real sockets: Host as RFC 9112 section 3.2 requires
// it; 100 Continue only for HTTP/1.1 clients and only once the key and the media type pass
// (RFC 9110 section 10.1.1); and header fields that would change a body's meaning.

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

const std::string pet = R"({"name":"Rex","categoryId":7})";

std::string with_length(const std::string& head, std::size_t length) {
  return head + "Content-Length: " + std::to_string(length) + "\r\n\r\n";
}

TEST(HttpServerHeadChecks, AnHttp11RequestWithoutExactlyOneValidHostIsRefused) {
  for (const std::string host_lines :
       {"", "Host: a.test\r\nHost: b.test\r\n", "Host: a b\r\n", "Host: user@a.test\r\n",
        "Host: a.test:80x\r\n", "Host: [::1\r\n", "Host: :80\r\n", "Host: a.test:80:81\r\n",
        "Host: a_b.test:8x\r\n"}) {
    SCOPED_TRACE(host_lines);
    ServerUnderTest server;
    RawConnection connection = server.connect();
    ASSERT_TRUE(connection.send("GET /healthz HTTP/1.1\r\n" + host_lines + "\r\n"));
    const RawResponse response = connection.read_response(5s);
    EXPECT_EQ(response.status, 400U);
    EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter"));
    EXPECT_TRUE(connection.read_until_closed(5s).has_value());
  }
}

TEST(HttpServerHeadChecks, ValidHostsAreServed) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  for (const std::string host :
       {"petstore.test", "petstore.test:8080", "127.0.0.1:80", "[::1]:8080", "",
        "petstore.test:", "1.2.3.999", "a_b.test:8080", "xn--bcher-kva.test"}) {
    SCOPED_TRACE(host);
    EXPECT_EQ(
        connection.round_trip("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n", 5s).status,
        200U);
  }
  // HTTP/1.0 did not require Host.
  EXPECT_EQ(server.connect().round_trip("GET /healthz HTTP/1.0\r\n\r\n", 5s).status, 200U);
}

TEST(HttpServerHeadChecks, AnHttp10ClientIsNeverSentContinue) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string head = "POST /v1/pets HTTP/1.0\r\nAuthorization: " + bearer(test_key_a) +
                           "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n";
  ASSERT_TRUE(connection.send(with_length(head, pet.size())));
  ASSERT_TRUE(connection.send(pet));
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 201U);  // the final response first, no 100 before it
}

TEST(HttpServerHeadChecks, ExpectContinueWithoutAKeyIsAnswered401BeforeTheBody) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(with_length(
      "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\nContent-Type: application/json\r\n"
      "Expect: 100-continue\r\n",
      pet.size())));
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 401U);
  EXPECT_TRUE(response.header("WWW-Authenticate").has_value());
  EXPECT_TRUE(connection.read_until_closed(5s).has_value());
}

TEST(HttpServerHeadChecks, ExpectContinueWithAnotherMediaTypeIsAnswered415BeforeTheBody) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(
      connection.send(with_length("POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\n"
                                  "Authorization: " +
                                      bearer(test_key_a) +
                                      "\r\nContent-Type: text/plain\r\n"
                                      "Expect: 100-continue\r\n",
                                  pet.size())));
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 415U);
  EXPECT_TRUE(is_error_body(response.body, 415, "unsupported_media_type"));
}

TEST(HttpServerHeadChecks, TwoContentTypesAreRefused) {
  ServerUnderTest server;
  const RawResponse response =
      server.connect().round_trip(format_request("POST", "/v1/pets",
                                                 {{"Authorization", bearer(test_key_a)},
                                                  {"Content-Type", "application/json"},
                                                  {"Content-Type", "text/plain"}},
                                                 pet),
                                  5s);
  EXPECT_EQ(response.status, 400U);
  EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter"));
}

TEST(HttpServerHeadChecks, AnEncodedBodyIsAnUnsupportedMediaType) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse gzip =
      connection.round_trip(format_request("POST", "/v1/pets",
                                           {{"Authorization", bearer(test_key_a)},
                                            {"Content-Type", "application/json"},
                                            {"Content-Encoding", "gzip"}},
                                           pet),
                            5s);
  EXPECT_EQ(gzip.status, 415U);
  EXPECT_TRUE(is_error_body(gzip.body, 415, "unsupported_media_type"));
  const RawResponse list = connection.round_trip(
      format_request("GET", "/v1/pets?limit=5", {{"Authorization", bearer(test_key_a)}}), 5s);
  EXPECT_EQ(list.body, "[]");  // nothing was created
}

}  // namespace
}  // namespace petstore::tests
