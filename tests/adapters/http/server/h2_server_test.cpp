// The service over HTTP/2 with prior knowledge (h2c, RFC 9113 section 3.3), end to end over real
// sockets with nghttp2's client: the same router answers with the same statuses, Error bodies and
// fields as over HTTP/1.1; many requests share a connection at once; the limits answer 413 and 431;
// the server's SETTINGS state its bounds; a drain sends GOAWAY; `http2 = false` leaves a preface to
// HTTP/1.1, which refuses it.

#include <nghttp2/nghttp2.h>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/http/server/h2_protocol.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/gunzip.hpp"
#include "support/h2_client.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

const H2Fields key_a{{"authorization", bearer(test_key_a)}};

H2Request create(std::string_view name) {
  return H2Request{"POST",
                   "/v1/pets",
                   {{"authorization", bearer(test_key_a)}, {"content-type", "application/json"}},
                   R"({"name":")" + std::string(name) + R"(","categoryId":7})"};
}

// The fields every response carries on both transports (response_wire.hpp), named in lower case.
void expect_common_fields(const H2Response& response) {
  EXPECT_TRUE(response.field("date").has_value()) << response.status;
  EXPECT_EQ(response.field("x-request-id").value_or("").size(), 32U) << response.status;
  EXPECT_EQ(response.field("traceresponse").value_or("").size(), 55U) << response.status;
  EXPECT_EQ(response.field("content-length"), std::to_string(response.body.size()));
  EXPECT_FALSE(response.field("connection").has_value()) << "RFC 9113 section 8.2.2";
}

// RFC 9113 section 6.5.2: the bounds the server keeps, told to the client in its SETTINGS.
TEST(Http2Server, ItsSettingsStateTheStreamAndHeaderBounds) {
  adapters::http::HttpLimits limits;
  limits.header_bytes = 8192;
  ServerUnderTest server(limits);
  const H2Client client = H2Client::connect(server.address());
  EXPECT_EQ(client.setting(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS),
            adapters::http::h2_max_concurrent_streams);
  EXPECT_EQ(client.setting(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE), 8192U);
  EXPECT_EQ(client.setting(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE),
            adapters::http::h2_header_table_bytes);
}

TEST(Http2Server, ServesTheOperationsAsOverHttp11) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  const H2Response created = client.send(create("Rex"));
  EXPECT_EQ(created.status, 201U) << created.body;
  EXPECT_EQ(created.field("location"), "/v1/pets/1");
  EXPECT_EQ(created.field("content-type"), "application/json");
  EXPECT_EQ(created.field("cache-control"), "no-store");
  EXPECT_EQ(created.field("x-content-type-options"), "nosniff");
  expect_common_fields(created);

  const H2Response got = client.send(H2Request{"GET", "/v1/pets/1", key_a, {}});
  EXPECT_EQ(got.status, 200U);
  EXPECT_EQ(got.body, created.body);
  expect_common_fields(got);

  const H2Response page = client.send(H2Request{"GET", "/v1/pets?limit=5", key_a, {}});
  EXPECT_EQ(page.status, 200U);
  EXPECT_EQ(page.body, "[" + created.body + "]");

  const H2Response head = client.send(H2Request{"HEAD", "/v1/pets?limit=5", key_a, {}});
  EXPECT_EQ(head.status, 200U);
  EXPECT_EQ(head.body, "") << "RFC 9110 section 9.3.2";
  EXPECT_EQ(head.field("content-length"), std::to_string(page.body.size()));
}

TEST(Http2Server, RefusalsCarryTheContractsErrorBody) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  const H2Response no_key = client.send(H2Request{"GET", "/v1/pets", {}, {}});
  EXPECT_EQ(no_key.status, 401U);
  EXPECT_TRUE(is_error_body(no_key.body, 401, "unauthorized")) << no_key.body;
  EXPECT_EQ(no_key.field("www-authenticate"), "Bearer realm=\"petstore\"");
  expect_common_fields(no_key);

  const H2Response wrong_method = client.send(H2Request{"DELETE", "/v1/pets", key_a, {}});
  EXPECT_EQ(wrong_method.status, 405U);
  EXPECT_TRUE(wrong_method.field("allow").has_value());
  EXPECT_TRUE(is_error_body(wrong_method.body, 405, "method_not_allowed")) << wrong_method.body;

  const H2Response bad_body = client.send(
      H2Request{"POST",
                "/v1/pets",
                {{"authorization", bearer(test_key_a)}, {"content-type", "application/json"}},
                "{"});
  EXPECT_EQ(bad_body.status, 400U);
  EXPECT_TRUE(is_error_body(bad_body.body, 400, "invalid_json")) << bad_body.body;

  const H2Response missing = client.send(H2Request{"GET", "/v1/pets/99", key_a, {}});
  EXPECT_EQ(missing.status, 404U);
  EXPECT_TRUE(is_error_body(missing.body, 404, "not_found")) << missing.body;
}

TEST(Http2Server, AClientsRequestIdAndTraceAreCarriedOn) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  constexpr std::string_view parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  H2Fields fields = key_a;
  fields.emplace_back("x-request-id", "my-request-1");
  fields.emplace_back("traceparent", std::string(parent));
  const H2Response response = client.send(H2Request{"GET", "/v1/pets", fields, {}});
  EXPECT_EQ(response.field("x-request-id"), "my-request-1");
  const std::string trace = response.field("traceresponse").value_or("");
  EXPECT_EQ(trace.substr(0, 36), parent.substr(0, 36)) << "the client's trace id, continued";
}

// RFC 9110 section 6.5 (and 9113 section 8.1): a trailer section is never merged into the header
// section, so a key sent only there authenticates nothing.
TEST(Http2Server, AKeyInTheTrailersIsNotAKey) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  const H2Response response = client.send(H2Request{"POST",
                                                    "/v1/pets",
                                                    {{"content-type", "application/json"}},
                                                    R"({"name":"Rex","categoryId":7})",
                                                    {{"authorization", bearer(test_key_a)}}});
  EXPECT_EQ(response.status, 401U) << response.body;
}

// RFC 9113 section 5: streams are independent; one connection carries many requests at once,
// each answered on its own stream.
TEST(Http2Server, ManyCreatesAtOnceOnOneConnectionEachGetTheirOwnId) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  std::vector<H2Request> requests;
  requests.reserve(64);
  for (int i = 0; i < 64; ++i) {
    requests.push_back(create("Pet" + std::to_string(i)));
  }
  const auto responses = client.send_all(requests);
  std::set<std::string> locations;
  for (const H2Response& response : responses) {
    EXPECT_EQ(response.status, 201U) << response.body;
    locations.insert(response.field("location").value_or(""));
  }
  EXPECT_EQ(locations.size(), requests.size());
  const H2Response page = client.send(H2Request{"GET", "/v1/pets?limit=100", key_a, {}});
  EXPECT_EQ(pet_ids(page.body).size(), 64U);
}

TEST(Http2Server, ALargePageGoesOutGzippedToAClientThatTakesGzip) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  std::vector<H2Request> requests;
  requests.reserve(40);
  for (int i = 0; i < 40; ++i) {
    requests.push_back(create("A pet with a name long enough " + std::to_string(i)));
  }
  (void)client.send_all(requests);
  H2Fields fields = key_a;
  fields.emplace_back("accept-encoding", "gzip");
  const H2Response plain = client.send(H2Request{"GET", "/v1/pets?limit=100", key_a, {}});
  const H2Response gzipped = client.send(H2Request{"GET", "/v1/pets?limit=100", fields, {}});
  EXPECT_EQ(plain.field("vary"), "Accept-Encoding");
  EXPECT_EQ(gzipped.field("content-encoding"), "gzip");
  EXPECT_LT(gzipped.body.size(), plain.body.size());
  EXPECT_EQ(gunzip(gzipped.body).value_or(""), plain.body);
}

TEST(Http2Server, ABodyPastTheLimitIs413AndTheConnectionGoesOn) {
  adapters::http::HttpLimits limits;
  limits.body_bytes = 1024;
  ServerUnderTest server(limits);
  H2Client client = H2Client::connect(server.address());
  H2Request large = create(std::string(2000, 'x'));
  const H2Response stated = client.send(large);  // nghttp2's client states the length
  EXPECT_EQ(stated.status, 413U);
  EXPECT_TRUE(is_error_body(stated.body, 413, "payload_too_large")) << stated.body;
  EXPECT_EQ(client.send(create("Small")).status, 201U) << "the connection still serves";
}

TEST(Http2Server, AHeadPastTheLimitIs431AndTheConnectionGoesOn) {
  adapters::http::HttpLimits limits;
  limits.header_bytes = 1024;
  ServerUnderTest server(limits);
  H2Client client = H2Client::connect(server.address());
  H2Fields fields = key_a;
  fields.emplace_back("x-padding", std::string(1500, 'p'));
  const H2Response refused = client.send(H2Request{"GET", "/v1/pets", fields, {}});
  EXPECT_EQ(refused.status, 431U);
  EXPECT_TRUE(is_error_body(refused.body, 431, "request_header_fields_too_large")) << refused.body;
  EXPECT_EQ(client.send(H2Request{"GET", "/v1/pets", key_a, {}}).status, 200U);
}

// Contract section 7 over HTTP/2: the drain tells the client by GOAWAY (RFC 9113 section 6.8),
// NO_ERROR, and the connection closes once its streams are answered.
TEST(Http2Server, ADrainSendsGoawayAndClosesTheConnection) {
  ServerUnderTest server;
  H2Client client = H2Client::connect(server.address());
  EXPECT_EQ(client.send(H2Request{"GET", "/v1/pets", key_a, {}}).status, 200U);
  server.server().drain();
  EXPECT_TRUE(client.run_until_closed(5s));
  EXPECT_EQ(client.goaway(), NGHTTP2_NO_ERROR);
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

// With HTTP/2 off, the preface is what it is to HTTP/1.1: a request it cannot read.
TEST(Http2Server, OffThePrefaceIsRefusedAsHttp11) {
  ServerSetup setup;
  setup.http2 = false;
  ServerUnderTest server(setup);
  RawConnection raw = server.connect();
  ASSERT_TRUE(raw.send(std::string(h2_preface) + h2_frame(0x4, 0, 0, {})));
  const RawResponse response = raw.read_response(5s);
  EXPECT_EQ(response.status, 400U);
}

}  // namespace
}  // namespace petstore::tests
