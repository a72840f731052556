// Header fields over real sockets, as the server read them when Beast kept every field in its
// container and as it reads them now that RequestParser keeps only the fields the service reads:
// Content-Length repeated (the same value is one length, two values a refusal), Content-Length
// beside Transfer-Encoding refused, an obsolete line fold read as one space (RFC 9112 section
// 5.2) and a fold past Beast's bound refused as too large, a field the server reads sent twice,
// and many fields nobody reads, read and ignored.

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "support/expect_refusal.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

const std::string pet = R"({"name":"Rex","categoryId":7})";

// create: a POST /v1/pets head with `fields` ("Name: value\r\n" lines) after Host, then `pet`.
std::string create(const std::string& fields) {
  return "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\n" + fields +
         "Content-Type: application/json\r\n\r\n" + pet;
}

std::string key_line() { return "Authorization: " + bearer(test_key_a) + "\r\n"; }

std::string length_line(std::size_t length) {
  return "Content-Length: " + std::to_string(length) + "\r\n";
}

TEST(HttpServerFields, AContentLengthRepeatedWithItsValueIsOneLength) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response = connection.round_trip(
      create(key_line() + length_line(pet.size()) + length_line(pet.size())), 5s);
  EXPECT_EQ(response.status, 201U) << response.body;
  EXPECT_TRUE(is_pet_body(response.body, "Rex", 7, "available"));
}

TEST(HttpServerFields, TwoContentLengthsThatDifferAreRefusedAndClose) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(
      connection.send(create(key_line() + length_line(pet.size()) + length_line(pet.size() - 1))));
  expect_refused_and_closed(connection, 400, "invalid_parameter");
}

TEST(HttpServerFields, ContentLengthBesideTransferEncodingIsRefusedAndCloses) {
  for (const std::string& framing : {length_line(pet.size()) + "Transfer-Encoding: chunked\r\n",
                                     "Transfer-Encoding: chunked\r\n" + length_line(pet.size())}) {
    SCOPED_TRACE(framing);
    ServerUnderTest server;
    RawConnection connection = server.connect();
    ASSERT_TRUE(connection.send(create(key_line() + framing)));
    expect_refused_and_closed(connection, 400, "invalid_parameter");
  }
}

TEST(HttpServerFields, AFoldedValueIsReadWithOneSpaceForTheFold) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string folded = "Authorization: Bearer\r\n \t " + std::string(test_key_a) + "\r\n";
  const RawResponse response = connection.round_trip(create(folded + length_line(pet.size())), 5s);
  EXPECT_EQ(response.status, 201U) << response.body;
  // A folded X-Request-Id is one value, "ab cd": a space is no character of an id, so the
  // server gives a new one rather than echo the first line's "ab".
  const RawResponse echoed = connection.round_trip(
      "GET /healthz HTTP/1.1\r\nHost: a\r\nX-Request-Id: ab\r\n cd\r\n\r\n", 5s);
  EXPECT_EQ(echoed.status, 200U);
  EXPECT_EQ(echoed.header("X-Request-Id").value_or("").size(), 32U);
}

TEST(HttpServerFields, AFoldedValuePastBeastsBoundIsTooLarge) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  std::string folded = "X-Long: a";
  for (int i = 0; i < 5; ++i) {
    folded += "\r\n " + std::string(1000, 'v');
  }
  ASSERT_TRUE(connection.send("GET /healthz HTTP/1.1\r\nHost: a\r\n" + folded + "\r\n\r\n"));
  expect_refused_and_closed(connection, 431, "request_header_fields_too_large");
}

TEST(HttpServerFields, AnAuthorizationSentTwiceIsNotBelieved) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response =
      connection.round_trip(create(key_line() + key_line() + length_line(pet.size())), 5s);
  EXPECT_EQ(response.status, 401U) << response.body;
}

TEST(HttpServerFields, FieldsNobodyReadsAreReadAndIgnored) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  std::string unread;
  for (int i = 0; i < 60; ++i) {
    unread += "X-Unread-" + std::to_string(i) + ": " + std::string(80, 'u') + "\r\n";
  }
  unread += "Accept: */*\r\nUser-Agent: test\r\nIdempotency-Key: k-1\r\n";
  const RawResponse response =
      connection.round_trip(create(unread + key_line() + length_line(pet.size())), 5s);
  EXPECT_EQ(response.status, 201U) << response.body;
  EXPECT_TRUE(is_pet_body(response.body, "Rex", 7, "available"));
}

}  // namespace
}  // namespace petstore::tests
