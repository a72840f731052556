// The server's deadlines (contract section 2), shrunk to a few hundred milliseconds: headers and
// body must arrive in time, idle keep-alive connections close, a busy connection stays open, and
// a client that never reads its responses cannot keep its connection forever.

#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

adapters::http::HttpLimits short_limits() {
  adapters::http::HttpLimits limits;
  limits.header_timeout = 300ms;
  limits.body_timeout = 300ms;
  limits.idle_timeout = 300ms;
  limits.write_timeout = 300ms;
  return limits;
}

// closed_within: whether the server closes `connection` within `most`, after at least `least`.
testing::AssertionResult closed_within(RawConnection& connection, Clock::duration least,
                                       Clock::duration most) {
  const auto start = Clock::now();
  const auto closed = connection.read_until_closed(std::chrono::seconds(5));
  const auto took = Clock::now() - start;
  if (!closed) {
    return testing::AssertionFailure() << "still open after 5 s";
  }
  if (took < least || took > most) {
    return testing::AssertionFailure()
           << "closed after " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
           << " ms";
  }
  return testing::AssertionSuccess();
}

TEST(HttpServerTimeouts, HalfARequestLineIsClosedAfterTheHeaderTimeout) {
  ServerUnderTest server(short_limits());
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send("GET /v1/pe"));
  EXPECT_TRUE(closed_within(connection, 200ms, 1500ms));
}

TEST(HttpServerTimeouts, HeadersTrickledSlowlyAreClosedAfterTheHeaderTimeout) {
  ServerUnderTest server(short_limits());
  RawConnection connection = server.connect();
  const auto start = Clock::now();
  ASSERT_TRUE(connection.send("GET /healthz HTTP/1.1\r\n"));
  bool open = true;
  for (int i = 0; i < 30 && open; ++i) {  // one header line every 100 ms, never the blank line
    std::this_thread::sleep_for(100ms);
    open = connection.send("X-Slow-" + std::to_string(i) + ": a\r\n");
  }
  EXPECT_TRUE(closed_within(connection, 0ms, 2s));
  EXPECT_LT(Clock::now() - start, 2500ms);
}

TEST(HttpServerTimeouts, ABodyThatStopsArrivingIsClosedAfterTheBodyTimeout) {
  ServerUnderTest server(short_limits());
  RawConnection connection = server.connect();
  const std::string body = R"({"name":"Rex","categoryId":7})";
  std::string request = format_request(
      "POST", "/v1/pets",
      {{"Authorization", bearer(test_key_a)}, {"Content-Type", "application/json"}}, body);
  request.resize(request.size() - body.size() / 2);  // the head and half the body
  ASSERT_TRUE(connection.send(request));
  EXPECT_TRUE(closed_within(connection, 200ms, 1500ms));
}

TEST(HttpServerTimeouts, AnIdleKeptAliveConnectionIsClosed) {
  ServerUnderTest server(short_limits());
  RawConnection connection = server.connect();
  ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  EXPECT_TRUE(closed_within(connection, 200ms, 1500ms));
}

TEST(HttpServerTimeouts, AConnectionThatNeverSendsIsClosedAfterTheHeaderTimeout) {
  auto limits = short_limits();
  limits.idle_timeout = 10s;
  ServerUnderTest server(limits);
  RawConnection connection = server.connect();
  EXPECT_TRUE(closed_within(connection, 200ms, 1500ms));
}

TEST(HttpServerTimeouts, AKeptAliveConnectionRestsForTheIdleTimeoutNotTheHeaderTimeout) {
  auto limits = short_limits();
  limits.idle_timeout = 1500ms;
  ServerUnderTest server(limits);
  RawConnection connection = server.connect();
  ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  EXPECT_TRUE(closed_within(connection, 1200ms, 3s));
}

// The deadline moves earlier here (a 10 s rest, then a head owed within 300 ms): the watchdog,
// armed for the later deadline, must still close at the earlier one.
TEST(HttpServerTimeouts, AHeadBegunAfterALongRestIsHeldToTheHeaderTimeout) {
  auto limits = short_limits();
  limits.idle_timeout = 10s;
  ServerUnderTest server(limits);
  RawConnection connection = server.connect();
  ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  std::this_thread::sleep_for(400ms);  // resting: longer than the header timeout, still open
  ASSERT_TRUE(connection.send("GET /v1/pe"));
  EXPECT_TRUE(closed_within(connection, 200ms, 1500ms));
}

TEST(HttpServerTimeouts, AConnectionInUseStaysOpenPastTheIdleTimeout) {
  ServerUnderTest server(short_limits());
  RawConnection connection = server.connect();
  for (int i = 0; i < 10; ++i) {  // 1.5 s in all, five times the idle timeout
    ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U) << i;
    std::this_thread::sleep_for(150ms);
  }
}

TEST(HttpServerTimeouts, AClientThatNeverReadsLosesItsConnection) {
  ServerUnderTest server(short_limits());
  {
    RawConnection writer = server.connect();
    const std::string name(200, 'n');
    for (int i = 0; i < 100; ++i) {
      ASSERT_EQ(writer
                    .round_trip(format_request("POST", "/v1/pets",
                                               {{"Authorization", bearer(test_key_a)},
                                                {"Content-Type", "application/json"}},
                                               R"({"name":")" + name + R"(","categoryId":7})"))
                    .status,
                201U);
    }
  }
  // Each answer is a page of about 25 KB; 400 of them outgrow any socket buffers.
  RawConnection reader = server.connect(4096);
  const std::string list =
      format_request("GET", "/v1/pets?limit=100", {{"Authorization", bearer(test_key_a)}});
  std::string pipelined;
  for (int i = 0; i < 400; ++i) {
    pipelined += list;
  }
  ASSERT_TRUE(reader.send(pipelined));
  EXPECT_TRUE(server.server().wait_until_idle(10s))
      << "the server still holds a connection whose client reads nothing";
}

}  // namespace
}  // namespace petstore::tests
