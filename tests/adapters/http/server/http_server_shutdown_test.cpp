// Stopping and destroying an HttpServer while clients still hold connections, as a shutdown does
// when its grace period ends (contract section 7: answer what is in flight for at most 10 s,
// then exit). stop() promises to close everything at once; nothing may outlive the io_context
// its sockets belong to (ASan checks that).

#include <chrono>
#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include "adapters/http/server/http_server.hpp"
#include "bootstrap/service.hpp"
#include "support/fake_clock.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/raw_http_connection.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// Not ServerUnderTest: these tests are about the very teardown that it performs gracefully.
class HttpServerShutdown : public testing::Test {
 protected:
  void SetUp() override {
    service_ =
        bootstrap::build_component_service(make_fake_key_verifier(), std::make_unique<FakeClock>());
    adapters::http::HttpServerOptions options;
    options.port = 0;
    options.threads = 2;
    auto started = adapters::http::start_http_server(options, service_->router());
    ASSERT_TRUE(started) << started.error().message;
    server_ = std::move(*started);
  }

  // open_connections: one idle kept-alive connection and one whose request body never comes.
  void open_connections() {
    idle_.emplace(RawConnection::connect(server_->local_address()));
    ASSERT_EQ(idle_->round_trip(format_request("GET", "/healthz")).status, 200U);
    // The interim 100 Continue shows that the server has read the head and waits for the body.
    half_.emplace(RawConnection::connect(server_->local_address()));
    ASSERT_TRUE(half_->send(
        "POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\nAuthorization: " + bearer(test_key_a) +
        "\r\nContent-Type: application/json\r\nContent-Length: 30\r\n"
        "Expect: 100-continue\r\n\r\n"));
    ASSERT_EQ(half_->read_response(5s).status, 100U);
  }

  std::unique_ptr<bootstrap::Service> service_;
  std::unique_ptr<adapters::http::HttpServer> server_;
  std::optional<RawConnection> idle_;
  std::optional<RawConnection> half_;
};

TEST_F(HttpServerShutdown, StopClosesOpenConnections) {
  open_connections();
  server_->stop();
  EXPECT_TRUE(idle_->read_until_closed(2s)) << "stop() left an idle connection open";
  EXPECT_TRUE(half_->read_until_closed(2s)) << "stop() left a connection in flight open";
}

TEST_F(HttpServerShutdown, DestroyingTheServerWithConnectionsOpenIsSafe) {
  open_connections();
  server_->drain();
  EXPECT_FALSE(server_->wait_until_idle(200ms));  // the half request holds on
  server_->stop();
  server_.reset();
  EXPECT_TRUE(half_->read_until_closed(2s));
}

}  // namespace
}  // namespace petstore::tests
