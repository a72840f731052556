// The server's size limits and refusals (contract sections 2 and 3): 413 for a body over the limit
// without reading it, 431 for oversized headers, 400 for bytes that are not HTTP, and the cap on
// open connections. Each refusal closes the connection.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

const Headers json_key_a{{"Authorization", bearer(test_key_a)},
                         {"Content-Type", "application/json"}};

// head_of: a POST /v1/pets head that announces `length` body bytes, with `extra` fields.
std::string head_of(std::size_t length, const Headers& extra = {}) {
  std::string head = "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\n";
  for (const auto& [name, value] : json_key_a) {
    head.append(name).append(": ").append(value).append("\r\n");
  }
  for (const auto& [name, value] : extra) {
    head.append(name).append(": ").append(value).append("\r\n");
  }
  return head + "Content-Length: " + std::to_string(length) + "\r\n\r\n";
}

// padded_pet: a NewPet body of exactly `size` bytes (white space after the object).
std::string padded_pet(std::size_t size) {
  std::string body = R"({"name":"Rex","categoryId":7})";
  body.resize(size, ' ');
  return body;
}

TEST(HttpServerLimits, ABodyOverTheLimitIsRefusedBeforeItIsSent) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(head_of(64 * 1024 + 1)));
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 413U);
  EXPECT_TRUE(is_error_body(response.body, 413, "payload_too_large"));
  EXPECT_EQ(response.header("Content-Type"), "application/json");
  EXPECT_EQ(connection.read_until_closed(5s), "");
}

TEST(HttpServerLimits, ABodyOverTheLimitThatIsSentAnywayIsRefused) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string body = padded_pet(std::size_t{100} * 1024);
  ASSERT_TRUE(connection.send(head_of(body.size()) + body));
  EXPECT_EQ(connection.read_response(5s).status, 413U);
  EXPECT_TRUE(connection.read_until_closed(5s));
}

TEST(HttpServerLimits, ExpectContinueWithABodyOverTheLimitGetsNoContinue) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(head_of(1'000'000, {{"Expect", "100-continue"}})));
  EXPECT_EQ(connection.read_response(5s).status, 413U);
  EXPECT_EQ(connection.read_until_closed(5s), "");
}

TEST(HttpServerLimits, AChunkedBodyOverTheLimitIsRefused) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  std::string head =
      "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\n"
      "Authorization: " +
      bearer(test_key_a) +
      "\r\n"
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
      "X-Request-Id: trace-413\r\n\r\n";
  ASSERT_TRUE(connection.send(head + "20000\r\n"));  // one chunk of 128 KiB announced
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 413U);
  EXPECT_EQ(response.header("X-Request-Id"), "trace-413");  // the head was read: its id is known
  EXPECT_TRUE(connection.read_until_closed(5s));
}

TEST(HttpServerLimits, ABodyAtTheLimitIsRead) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string body = padded_pet(std::size_t{64} * 1024);
  const RawResponse response = connection.round_trip(head_of(body.size()) + body);
  EXPECT_EQ(response.status, 201U) << response.body;
  EXPECT_TRUE(is_pet_body(response.body, "Rex", 7, "available"));
}

TEST(HttpServerLimits, HeadersOverTheLimitAreRefused) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string request =
      format_request("GET", "/v1/pets", {{"X-Filler", std::string(std::size_t{17} * 1024, 'a')}});
  ASSERT_TRUE(connection.send(request));
  const RawResponse response = connection.read_response(5s);
  EXPECT_EQ(response.status, 431U);
  EXPECT_TRUE(is_error_body(response.body, 431, "request_header_fields_too_large"));
  EXPECT_TRUE(connection.read_until_closed(5s));
}

TEST(HttpServerLimits, HeadersUnderTheLimitAreRead) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response = connection.round_trip(
      format_request("GET", "/healthz", {{"X-Filler", std::string(std::size_t{15} * 1024, 'a')}}));
  EXPECT_EQ(response.status, 200U);
}

TEST(HttpServerLimits, SmallerConfiguredLimitsApply) {
  adapters::http::HttpLimits limits;
  limits.body_bytes = 100;
  limits.header_bytes = 1024;
  ServerUnderTest server(limits);
  RawConnection small_body = server.connect();
  EXPECT_EQ(small_body.round_trip(head_of(100) + padded_pet(100)).status, 201U);
  RawConnection big_body = server.connect();
  EXPECT_EQ(big_body.round_trip(head_of(101) + padded_pet(101)).status, 413U);
  RawConnection big_head = server.connect();
  EXPECT_EQ(
      big_head.round_trip(format_request("GET", "/healthz", {{"X-Filler", std::string(1100, 'a')}}))
          .status,
      431U);
}

TEST(HttpServerLimits, BytesThatAreNotHttpGetBadRequestAndAClosedConnection) {
  ServerUnderTest server;
  for (const std::string& garbage :
       {std::string("HELLO\r\n\r\n"), std::string("GET /v1/pets HTTX/1.1\r\n\r\n"),
        std::string("GET\r\n\r\n"), std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11),
        std::string("GET /healthz HTTP/1.1\r\nBad Header\r\n\r\n"),
        std::string("GET /healthz HTTP/1.1\r\nContent-Length: x\r\n\r\n")}) {
    RawConnection connection = server.connect();
    ASSERT_TRUE(connection.send(garbage));
    const RawResponse response = connection.read_response(5s);
    EXPECT_EQ(response.status, 400U) << garbage;
    EXPECT_EQ(parse_json(response.body).as_object().at("status"), 400) << garbage;
    EXPECT_TRUE(connection.read_until_closed(5s)) << garbage;
  }
}

TEST(HttpServerLimits, ConnectionsPastTheCapAreClosedAtOnce) {
  adapters::http::HttpLimits limits;
  limits.max_connections = 4;
  ServerUnderTest server(limits);
  std::vector<RawConnection> admitted;
  for (int i = 0; i < 4; ++i) {
    admitted.push_back(server.connect());
    ASSERT_EQ(admitted.back().round_trip(format_request("GET", "/healthz")).status, 200U);
  }
  RawConnection fifth = server.connect();
  EXPECT_EQ(fifth.read_until_closed(5s), "");
  for (RawConnection& connection : admitted) {
    EXPECT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  }
  // Once one leaves, a newcomer is served again (the server notices the close on its own time).
  admitted.pop_back();
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    RawConnection newcomer = server.connect();
    if (newcomer.send(format_request("GET", "/healthz"))) {
      try {
        served = newcomer.read_response(2s).status == 200;
      } catch (const std::runtime_error&) {
        std::this_thread::sleep_for(100ms);
      }
    }
  }
  EXPECT_TRUE(served);
}

}  // namespace
}  // namespace petstore::tests
