// HttpServer::drain and wait_until_idle (the graceful stop of contract section 7): idle
// connections close at once, a request in flight is still answered (with Connection: close),
// no new connection is served, and the server then reports itself idle.

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

TEST(HttpServerDrain, ClosesIdleConnectionsAndAnswersTheRequestInFlight) {
  ServerUnderTest server;
  RawConnection idle = server.connect();
  ASSERT_EQ(idle.round_trip(format_request("GET", "/healthz")).status, 200U);

  // The interim 100 Continue proves that the server has read the head and waits for the body:
  // the request is in flight, deterministically.
  RawConnection busy = server.connect();
  const std::string body = R"({"name":"Rex","categoryId":7})";
  std::string head = format_request("POST", "/v1/pets",
                                    {{"Authorization", bearer(test_key_a)},
                                     {"Content-Type", "application/json"},
                                     {"Expect", "100-continue"}},
                                    body);
  head.resize(head.size() - body.size());
  ASSERT_TRUE(busy.send(head));
  ASSERT_EQ(busy.read_response(5s).status, 100U);

  server.server().drain();

  EXPECT_EQ(idle.read_until_closed(5s), "") << "an idle connection stays open while draining";
  ASSERT_TRUE(busy.send(body));
  const RawResponse created = busy.read_response(5s);
  EXPECT_EQ(created.status, 201U);
  EXPECT_TRUE(is_pet_body(created.body, "Rex", 7, "available"));
  EXPECT_EQ(created.header("Connection"), "close");
  EXPECT_EQ(busy.read_until_closed(5s), "");
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

TEST(HttpServerDrain, NewConnectionsAreNotServedOnceDraining) {
  ServerUnderTest server;
  server.server().drain();
  ASSERT_TRUE(server.server().wait_until_idle(5s));
  auto late = RawConnection::try_connect(server.address());
  if (late) {  // accepted by the kernel before the listener closed: it must be closed unanswered
    late->send(format_request("GET", "/healthz"));
    EXPECT_TRUE(late->read_until_closed(5s));
  }
}

TEST(HttpServerDrain, WaitUntilIdleTimesOutWhileAConnectionIsOpen) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  EXPECT_FALSE(server.server().wait_until_idle(200ms));
}

}  // namespace
}  // namespace petstore::tests
