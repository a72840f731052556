// The HTTP server end to end over real sockets: the router's answers arrive intact with the
// headers every response carries, connections are kept alive, pipelined requests are answered
// in order, HTTP/1.0 and `Connection: close` are honoured, and `Expect: 100-continue` works.

#include <string>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

const Headers key_a{{"Authorization", bearer(test_key_a)}};
const Headers json_key_a{{"Authorization", bearer(test_key_a)},
                         {"Content-Type", "application/json"}};

std::string create_request(std::string_view name) {
  return format_request("POST", "/v1/pets", json_key_a,
                        R"({"name":")" + std::string(name) + R"(","categoryId":7})");
}

// is_imf_fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 section 5.6.7).
bool is_imf_fixdate(std::string_view date) {
  constexpr std::string_view shape = "___, 99 ___ 9999 99:99:99 GMT";  // 9: a digit; _: see below
  constexpr std::string_view days = "Mon Tue Wed Thu Fri Sat Sun";
  constexpr std::string_view months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec";
  if (date.size() != shape.size() || days.find(date.substr(0, 3)) % 4 != 0 ||
      months.find(date.substr(8, 3)) % 4 != 0) {
    return false;
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool matches = shape[i] == '_' || (shape[i] == '9' && date[i] >= '0' && date[i] <= '9') ||
                         shape[i] == date[i];
    if (!matches) {
      return false;
    }
  }
  return true;
}

// has_wire_headers: what every response carries on the wire: a JSON Content-Type for its body
// and a Date.
testing::AssertionResult has_wire_headers(const RawResponse& response) {
  if (response.header("Content-Type") != "application/json") {
    return testing::AssertionFailure() << "status " << response.status << " has Content-Type "
                                       << response.header("Content-Type").value_or("(none)");
  }
  const auto date = response.header("Date");
  if (!date || !is_imf_fixdate(*date)) {
    return testing::AssertionFailure()
           << "status " << response.status << " has Date " << date.value_or("(none)");
  }
  return testing::AssertionSuccess();
}

TEST(HttpServerExchange, ServesTheOperationsOnOneKeptAliveConnection) {
  ServerUnderTest server;
  RawConnection connection = server.connect();

  const RawResponse created = connection.round_trip(create_request("Rex"));
  EXPECT_EQ(created.status, 201U);
  EXPECT_TRUE(is_pet_body(created.body, "Rex", 7, "available"));
  ASSERT_TRUE(created.header("Location"));
  EXPECT_TRUE(has_wire_headers(created));
  EXPECT_EQ(created.header("Cache-Control"), "no-store");
  EXPECT_EQ(created.header("X-Content-Type-Options"), "nosniff");
  EXPECT_NE(created.header("Connection"), "close");

  const RawResponse fetched =
      connection.round_trip(format_request("GET", *created.header("Location"), key_a));
  EXPECT_EQ(fetched.status, 200U);
  EXPECT_EQ(parse_json(fetched.body), parse_json(created.body));
  EXPECT_EQ(fetched.header("Sunset"), "Thu, 05 Dec 2030 00:00:00 GMT");
  EXPECT_TRUE(has_wire_headers(fetched));

  const RawResponse listed = connection.round_trip(format_request("GET", "/v1/pets", key_a));
  EXPECT_EQ(listed.status, 200U);
  EXPECT_EQ(pet_ids(listed.body), std::vector<std::int64_t>{pet_id_of(created.body)});
  EXPECT_TRUE(has_wire_headers(listed));

  const RawResponse health = connection.round_trip(format_request("GET", "/healthz"));
  EXPECT_EQ(health.status, 200U);
  EXPECT_EQ(parse_json(health.body), parse_json(R"({"status":"ok"})"));
  EXPECT_TRUE(has_wire_headers(health));
}

TEST(HttpServerExchange, ErrorsCarryTheirHeadersOnTheWire) {
  ServerUnderTest server;
  RawConnection connection = server.connect();

  const RawResponse missing = connection.round_trip(format_request("GET", "/v1/nothing"));
  EXPECT_EQ(missing.status, 401U);
  EXPECT_TRUE(is_error_body(missing.body, 401, "unauthorized"));
  EXPECT_EQ(missing.header("WWW-Authenticate"), R"(Bearer realm="petstore")");
  EXPECT_EQ(missing.header("Cache-Control"), "no-store");
  EXPECT_EQ(missing.header("X-Content-Type-Options"), "nosniff");
  EXPECT_TRUE(has_wire_headers(missing));

  const RawResponse wrong = connection.round_trip(
      format_request("GET", "/v1/pets", {{"Authorization", "bearer   wrong-key"}}));
  EXPECT_EQ(wrong.status, 401U);
  EXPECT_EQ(wrong.header("WWW-Authenticate"), R"(Bearer realm="petstore", error="invalid_token")");

  const RawResponse not_allowed =
      connection.round_trip(format_request("DELETE", "/v1/pets", key_a));
  EXPECT_EQ(not_allowed.status, 405U);
  EXPECT_EQ(not_allowed.header("Allow"), "GET, HEAD, POST");
  EXPECT_EQ(not_allowed.header("Cache-Control"), "no-store");
  EXPECT_TRUE(has_wire_headers(not_allowed));

  const RawResponse unsupported = connection.round_trip(
      format_request("POST", "/v1/pets", key_a, R"({"name":"Rex","categoryId":7})"));
  EXPECT_EQ(unsupported.status, 415U);
  EXPECT_TRUE(is_error_body(unsupported.body, 415, "unsupported_media_type"));

  const RawResponse orders =
      connection.round_trip(format_request("GET", "/v1/store/orders", key_a));
  EXPECT_EQ(orders.status, 501U);
  EXPECT_TRUE(has_wire_headers(orders));

  const RawResponse outside = connection.round_trip(format_request("GET", "/v10/pets"));
  EXPECT_EQ(outside.status, 404U);
  EXPECT_TRUE(has_wire_headers(outside));
}

TEST(HttpServerExchange, AnswersPipelinedRequestsInOrder) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(create_request("first") + create_request("second") +
                              format_request("GET", "/v1/pets?limit=1", key_a) +
                              create_request("third")));
  const RawResponse first = connection.read_response();
  const RawResponse second = connection.read_response();
  const RawResponse listed = connection.read_response();
  const RawResponse third = connection.read_response();
  EXPECT_TRUE(is_pet_body(first.body, "first", 7, "available"));
  EXPECT_TRUE(is_pet_body(second.body, "second", 7, "available"));
  EXPECT_EQ(pet_ids(listed.body), std::vector<std::int64_t>{pet_id_of(first.body)});
  EXPECT_TRUE(is_pet_body(third.body, "third", 7, "available"));
  EXPECT_LT(pet_id_of(first.body), pet_id_of(second.body));
  EXPECT_LT(pet_id_of(second.body), pet_id_of(third.body));
}

TEST(HttpServerExchange, ARequestSplitIntoManyWritesIsOneRequest) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string request = create_request("Rex");
  for (std::size_t at = 0; at < request.size(); at += 7) {
    ASSERT_TRUE(connection.send(request.substr(at, 7)));
  }
  EXPECT_EQ(connection.read_response().status, 201U);
}

// The session parses what it has buffered before reading more: a chunked body in pieces, with a
// pipelined request behind it in the last piece, is still two requests answered in order.
TEST(HttpServerExchange, AChunkedBodyInPiecesThenAPipelinedRequestAreBothAnswered) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string body = R"({"name":"Chunky","categoryId":7})";
  std::string request =
      "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\nAuthorization: " + bearer(test_key_a) +
      "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  request += "5\r\n" + body.substr(0, 5) + "\r\n";
  const std::string rest = body.substr(5);
  ASSERT_EQ(rest.size(), 0x1BU);  // the second chunk's size line below
  request += "1b\r\n" + rest + "\r\n0\r\n\r\n";
  request += format_request("GET", "/v1/pets?limit=5", key_a);
  for (std::size_t at = 0; at < request.size(); at += 11) {
    ASSERT_TRUE(connection.send(request.substr(at, 11)));
  }
  const RawResponse created = connection.read_response();
  EXPECT_EQ(created.status, 201U) << created.body;
  EXPECT_TRUE(is_pet_body(created.body, "Chunky", 7, "available"));
  const RawResponse listed = connection.read_response();
  EXPECT_EQ(listed.status, 200U);
  EXPECT_EQ(pet_ids(listed.body), std::vector<std::int64_t>{pet_id_of(created.body)});
}

TEST(HttpServerExchange, ConnectionCloseIsHonoured) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response =
      connection.round_trip(format_request("GET", "/healthz", {{"Connection", "close"}}));
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(response.header("Connection"), "close");
  EXPECT_EQ(connection.read_until_closed(std::chrono::seconds(5)), "");
}

TEST(HttpServerExchange, Http10ClosesAfterTheResponse) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response = connection.round_trip("GET /healthz HTTP/1.0\r\n\r\n");
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(response.version, "HTTP/1.0");
  EXPECT_EQ(connection.read_until_closed(std::chrono::seconds(5)), "");
}

TEST(HttpServerExchange, Http10WithKeepAliveKeepsTheConnection) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  for (int i = 0; i < 2; ++i) {
    const RawResponse response =
        connection.round_trip("GET /healthz HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
    EXPECT_EQ(response.status, 200U) << i;
    EXPECT_EQ(response.header("Connection"), "keep-alive") << i;
  }
}

// Connection is a list of tokens, any case (RFC 9110 section 7.6.1); the first field decides,
// as Beast's keep_alive() reads it.
TEST(HttpServerExchange, CloseAmongConnectionTokensIsHonoured) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response =
      connection.round_trip(format_request("GET", "/healthz", {{"Connection", "x-trace, CLOSE"}}));
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(response.header("Connection"), "close");
  EXPECT_EQ(connection.read_until_closed(std::chrono::seconds(5)), "");
}

TEST(HttpServerExchange, ARefusedHeadEchoesTheRequestId) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const RawResponse response = connection.round_trip(
      "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-Request-Id: trace-42\r\n\r\n");
  EXPECT_EQ(response.status, 400U);
  EXPECT_EQ(response.header("X-Request-Id"), "trace-42");
}

TEST(HttpServerExchange, ExpectContinueGetsAnInterimResponseBeforeTheBody) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  const std::string body = R"({"name":"Rex","categoryId":7})";
  Headers headers = json_key_a;
  headers.emplace_back("Expect", "100-continue");
  std::string request = format_request("POST", "/v1/pets", headers, body);
  request.resize(request.size() - body.size());  // the head only
  ASSERT_TRUE(connection.send(request));
  const RawResponse interim = connection.read_response(std::chrono::seconds(5));
  EXPECT_EQ(interim.status, 100U);
  EXPECT_EQ(interim.version, "HTTP/1.1");
  ASSERT_TRUE(connection.send(body));
  const RawResponse created = connection.read_response();
  EXPECT_EQ(created.status, 201U);
  EXPECT_TRUE(is_pet_body(created.body, "Rex", 7, "available"));
}

}  // namespace
}  // namespace petstore::tests
