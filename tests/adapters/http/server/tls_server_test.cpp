// HTTPS end to end: every operation over TLS with a certificate made at test time, old protocol
// versions and plain HTTP refused without harm, and the certificate reloaded while serving.

#include <filesystem>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/h2_client.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"
#include "support/temp_dir.hpp"
#include "support/test_certificate.hpp"
#include "support/tls_client.hpp"

namespace petstore::tests {
namespace {

// response_of: the response an exchange received, if a whole one came.
std::optional<RawResponse> response_of(TlsExchange exchange) {
  RawResponse response;
  if (parse_response(exchange.received, response) != ParseOutcome::complete) {
    return std::nullopt;
  }
  return response;
}

class TlsServerTest : public testing::Test {
 protected:
  TlsServerTest() {
    write_self_signed_certificate("first.petstore.test", certificate(), key());
    server_.emplace(ServerSetup{{}, 2, adapters::http::TlsFiles{certificate(), key()}, {}, {}});
  }
  [[nodiscard]] std::filesystem::path certificate() const { return dir_.path() / "cert.pem"; }
  [[nodiscard]] std::filesystem::path key() const { return dir_.path() / "key.pem"; }

  [[nodiscard]] std::optional<RawResponse> https(const std::string& method,
                                                 const std::string& target,
                                                 const std::string& body = {}) {
    Headers headers{{"Authorization", bearer(test_key_a)}, {"Connection", "close"}};
    if (!body.empty()) {
      headers.emplace_back("Content-Type", "application/json");
    }
    return response_of(
        tls_exchange(server_->address(), format_request(method, target, headers, body)));
  }

  TempDir dir_;
  std::optional<ServerUnderTest> server_;
};

TEST_F(TlsServerTest, ServesEveryOperation) {
  const auto created = https("POST", "/v1/pets", R"({"name":"Rex","categoryId":7})");
  ASSERT_TRUE(created.has_value());
  EXPECT_EQ(created->status, 201U);
  EXPECT_EQ(created->header("Location"), "/v1/pets/1");
  const auto listed = https("GET", "/v1/pets?limit=5");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->status, 200U);
  EXPECT_EQ(pet_ids(listed->body), std::vector<std::int64_t>{1});
  const auto read = https("GET", "/v1/pets/1");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->status, 200U);
  EXPECT_EQ(pet_id_of(read->body), 1);
  const auto orders = https("GET", "/v1/store/orders");
  ASSERT_TRUE(orders.has_value());
  EXPECT_TRUE(is_error_body(orders->body, 501, "not_implemented"));
  const auto anonymous = response_of(tls_exchange(
      server_->address(), format_request("GET", "/v1/pets", {{"Connection", "close"}})));
  ASSERT_TRUE(anonymous.has_value());
  EXPECT_EQ(anonymous->status, 401U);
}

TEST_F(TlsServerTest, OffersTls12AndTls13Only) {
  const std::string request = format_request("GET", "/healthz", {{"Connection", "close"}});
  EXPECT_TRUE(
      response_of(tls_exchange(server_->address(), request, TLS1_2_VERSION, TLS1_2_VERSION)));
  EXPECT_TRUE(
      response_of(tls_exchange(server_->address(), request, TLS1_3_VERSION, TLS1_3_VERSION)));
  EXPECT_FALSE(tls_exchange(server_->address(), request, TLS1_1_VERSION, TLS1_1_VERSION)
                   .handshake_succeeded);
  EXPECT_FALSE(
      tls_exchange(server_->address(), request, TLS1_VERSION, TLS1_VERSION).handshake_succeeded);
}

// ALPN (RFC 7301) chooses each connection's protocol: h2 when offered (and HTTP/2 is on), spoken at
// once: the server's first frame is its SETTINGS (RFC 9113 section 3.4); http/1.1 otherwise.
TEST_F(TlsServerTest, AlpnChoosesH2WhenOfferedAndTheConnectionSpeaksIt) {
  // The client's preface, SETTINGS, and a GOAWAY so that the server closes at once.
  const std::string h2_hello =
      std::string(h2_preface) + h2_frame(0x4, 0, 0, {}) + h2_frame(0x7, 0, 0, std::string(8, '\0'));
  const auto h2 = tls_exchange(server_->address(), h2_hello, TLS1_2_VERSION, TLS1_3_VERSION,
                               "\x02h2\x08http/1.1");
  ASSERT_TRUE(h2.handshake_succeeded);
  EXPECT_EQ(h2.protocol, "h2");
  ASSERT_GE(h2.received.size(), 9U);
  EXPECT_EQ(h2.received[3], '\x04') << "the server's first frame is not SETTINGS";

  const std::string request = format_request("GET", "/healthz", {{"Connection", "close"}}, {});
  const auto http11 =
      tls_exchange(server_->address(), request, TLS1_2_VERSION, TLS1_3_VERSION, "\x08http/1.1");
  EXPECT_EQ(http11.protocol, "http/1.1");
  EXPECT_EQ(http11.received.substr(0, 15), "HTTP/1.1 200 OK");
  const auto none = tls_exchange(server_->address(), request);
  EXPECT_EQ(none.protocol, "");
  EXPECT_EQ(none.received.substr(0, 15), "HTTP/1.1 200 OK");
}

TEST(TlsServerHttp2, OffItChoosesHttp11ThoughTheClientOffersH2) {
  const TempDir dir;
  write_self_signed_certificate("petstore.test", dir.path() / "cert.pem", dir.path() / "key.pem");
  ServerSetup setup{
      {}, 2, adapters::http::TlsFiles{dir.path() / "cert.pem", dir.path() / "key.pem"}, {}, {}};
  setup.http2 = false;
  ServerUnderTest server(setup);
  const auto exchange = tls_exchange(
      server.address(), format_request("GET", "/healthz", {{"Connection", "close"}}, {}),
      TLS1_2_VERSION, TLS1_3_VERSION, "\x02h2\x08http/1.1");
  EXPECT_EQ(exchange.protocol, "http/1.1");
  EXPECT_EQ(exchange.received.substr(0, 15), "HTTP/1.1 200 OK");
}

TEST_F(TlsServerTest, PlainHttpToTheTlsPortIsClosedAndTheServerGoesOn) {
  RawConnection plain = server_->connect();
  ASSERT_TRUE(plain.send(format_request("GET", "/healthz")));
  const auto received = plain.read_until_closed(std::chrono::seconds(10));
  ASSERT_TRUE(received.has_value()) << "the server kept a plain-HTTP connection open";
  EXPECT_EQ(received->find("HTTP/1.1 200"), std::string::npos);
  const auto after = https("GET", "/healthz");
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->status, 200U);
}

TEST_F(TlsServerTest, ReloadServesANewCertificateToNewConnections) {
  const std::string request = format_request("GET", "/healthz", {{"Connection", "close"}});
  EXPECT_EQ(tls_exchange(server_->address(), request).peer_common_name, "first.petstore.test");
  write_self_signed_certificate("second.petstore.test", certificate(), key());
  ASSERT_TRUE(server_->server().reload_tls().has_value());
  EXPECT_EQ(tls_exchange(server_->address(), request).peer_common_name, "second.petstore.test");
}

TEST_F(TlsServerTest, AFailedReloadKeepsTheCertificateInUse) {
  const std::string request = format_request("GET", "/healthz", {{"Connection", "close"}});
  std::filesystem::resize_file(certificate(), 10);
  const auto reloaded = server_->server().reload_tls();
  ASSERT_FALSE(reloaded.has_value());
  EXPECT_NE(reloaded.error().message.find("cert.pem"), std::string::npos);
  EXPECT_EQ(tls_exchange(server_->address(), request).peer_common_name, "first.petstore.test");
}

TEST(TlsServerStart, RefusesUnusableCertificateFiles) {
  ServerSetup setup;
  setup.tls = adapters::http::TlsFiles{"/nonexistent/cert.pem", "/nonexistent/key.pem"};
  EXPECT_THROW(ServerUnderTest server(setup), std::runtime_error);
}

}  // namespace
}  // namespace petstore::tests
