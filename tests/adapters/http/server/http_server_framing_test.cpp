// Hostile framing over real sockets (RFC 9112 sections 6 and 7): a chunk-size line or a trailer
// section that never ends is refused once it passes its bound, not buffered whole; a
// Transfer-Encoding that does not end in chunked is refused and the connection closed, so body
// bytes can never be served as a next request; trailer fields never stand in for header fields.

#include <chrono>
#include <cstdio>
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

// chunked_head: a request head announcing a chunked body, with `fields` lines ("Name: value\r\n").
std::string chunked_head(std::string_view target, std::string_view fields,
                         std::string_view version = "HTTP/1.1") {
  return std::string("POST ").append(target).append(" ").append(version).append(
             "\r\nHost: petstore.test\r\nTransfer-Encoding: chunked\r\n") +
         std::string(fields) + "\r\n";
}

std::string create_fields() {
  return "Authorization: " + bearer(test_key_a) + "\r\nContent-Type: application/json\r\n";
}

// as_chunk: `data` as one chunk.
std::string as_chunk(std::string_view data) {
  char size[20];
  std::snprintf(size, sizeof size, "%zx", data.size());
  return std::string(size) + "\r\n" + std::string(data) + "\r\n";
}

TEST(HttpServerFraming, AChunkExtensionThatNeverEndsIsRefusedAtItsBound) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(chunked_head("/healthz", "") + "1;" +
                              std::string(std::size_t{64} * 1024, 'a')));
  expect_refused_and_closed(connection, 400, "invalid_parameter");
}

TEST(HttpServerFraming, LeadingZerosWithoutEndInAChunkSizeAreRefused) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(
      connection.send(chunked_head("/healthz", "") + std::string(std::size_t{64} * 1024, '0')));
  expect_refused_and_closed(connection, 400, "invalid_parameter");
}

TEST(HttpServerFraming, ChunkExtensionsWithinTheBoundAreRead) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  // A first chunk of 0x10 bytes with a 3,000-byte extension, then the rest of the body.
  const std::string first = pet.substr(0, 16);
  const std::string request = chunked_head("/v1/pets", create_fields()) +
                              "10;name=" + std::string(3000, 'v') + "\r\n" + first + "\r\n" +
                              as_chunk(pet.substr(16)) + "0\r\n\r\n";
  const RawResponse response = connection.round_trip(request, 5s);
  EXPECT_EQ(response.status, 201U) << response.body;
  EXPECT_TRUE(is_pet_body(response.body, "Rex", 7, "available"));
}

TEST(HttpServerFraming, ATrailerSectionThatNeverEndsIsRefusedAtTheHeaderLimit) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  std::string request = chunked_head("/healthz", "") + "0\r\n";
  for (int i = 0; i < 2000; ++i) {
    request += "X-Trailer-" + std::to_string(i) + ": " + std::string(40, 't') + "\r\n";
  }
  ASSERT_TRUE(connection.send(request));  // about 100 KiB of trailer fields, never ended
  expect_refused_and_closed(connection, 431, "request_header_fields_too_large");
}

TEST(HttpServerFraming, AWholeTrailerSectionOverTheHeaderLimitIsRefused) {
  adapters::http::HttpLimits limits;
  limits.header_bytes = 1024;
  ServerUnderTest server(limits);
  RawConnection connection = server.connect();
  std::string request = chunked_head("/healthz", "") + "0\r\n";
  for (int i = 0; i < 40; ++i) {
    request += "X-Trailer-" + std::to_string(i) + ": " + std::string(40, 't') + "\r\n";
  }
  ASSERT_TRUE(connection.send(request + "\r\n"));  // 2 KiB of trailers, complete
  expect_refused_and_closed(connection, 431, "request_header_fields_too_large");
}

TEST(HttpServerFraming, TrailerFieldsAreNotHeaderFields) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string trailers =
      "Authorization: " + bearer(test_key_a) + "\r\nContent-Type: application/json\r\n";
  const RawResponse response = connection.round_trip(
      chunked_head("/v1/pets", "") + as_chunk(pet) + "0\r\n" + trailers + "\r\n", 5s);
  EXPECT_EQ(response.status, 401U) << response.body;
  const std::string typed_in_trailer =
      chunked_head("/v1/pets", "Authorization: " + bearer(test_key_a) + "\r\n") + as_chunk(pet) +
      "0\r\nContent-Type: application/json\r\n\r\n";
  EXPECT_EQ(connection.round_trip(typed_in_trailer, 5s).status, 415U);
}

TEST(HttpServerFraming, ATransferEncodingNotEndingInChunkedIsRefusedAndCloses) {
  for (const std::string coding :
       {"chunked, identity", "xchunked", "identity", "chunked;q=1, gzip"}) {
    SCOPED_TRACE(coding);
    ServerUnderTest server;
    RawConnection connection = server.connect();
    // The "body" is a whole second request: served, it would be a smuggled one.
    const std::string smuggled = format_request("GET", "/healthz");
    std::string request = "POST /healthz HTTP/1.1\r\nHost: petstore.test\r\nTransfer-Encoding: ";
    request.append(coding).append("\r\n\r\n").append(smuggled);
    ASSERT_TRUE(connection.send(request));
    expect_refused_and_closed(connection, 400, "invalid_parameter");
  }
}

TEST(HttpServerFraming, AnUnknownTransferCodingIsNotImplemented) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(
      connection.send("POST /healthz HTTP/1.1\r\nHost: petstore.test\r\n"
                      "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"));
  expect_refused_and_closed(connection, 501, "not_implemented");
}

TEST(HttpServerFraming, ChunkedTwiceIsRefused) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(
      connection.send("POST /healthz HTTP/1.1\r\nHost: petstore.test\r\n"
                      "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"));
  expect_refused_and_closed(connection, 400, "invalid_parameter");
}

TEST(HttpServerFraming, TransferEncodingOnHttp10IsAnsweredThenTheConnectionCloses) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(
      chunked_head("/v1/pets", create_fields() + "Connection: keep-alive\r\n", "HTTP/1.0") +
      as_chunk(pet) + "0\r\n\r\n" + format_request("GET", "/healthz")));
  const RawResponse created = connection.read_response(5s);
  EXPECT_EQ(created.status, 201U);
  // HTTP/1.0 without "Connection: keep-alive" in the answer means close: it says so, then does so.
  EXPECT_NE(created.header("Connection"), "keep-alive");
  EXPECT_EQ(connection.read_until_closed(5s), "");
}

TEST(HttpServerFraming, EmptyLinesBeforeARequestLineAreIgnored) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  EXPECT_EQ(connection.round_trip("\r\n\r\n\n" + format_request("GET", "/healthz"), 5s).status,
            200U);
  EXPECT_EQ(connection.round_trip("\r\n" + format_request("GET", "/healthz"), 5s).status, 200U);
}

}  // namespace
}  // namespace petstore::tests
