// Floods of clients that try to hold the server (issue 5, contract section 2): hundreds of
// connections trickling a request line one byte a second are each closed at the header timeout
// while a normal client is still answered promptly, and past the connection cap new connections
// are closed at once and the server serves again once the admitted ones are gone.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// ensure_descriptors: raises the soft limit on open files to at least `wanted` (the test and the
// server share one process, two descriptors per connection), as far as the hard limit allows.
void ensure_descriptors(rlim_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < wanted) {
    limit.rlim_cur = std::min(wanted, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

long long milliseconds(Clock::duration duration) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

// Prober: while alive, a normal client that opens a connection every 250 ms and times one
// GET /healthz; a failed exchange counts as taking forever.
class Prober {
 public:
  explicit Prober(const ServerUnderTest& server)
      : thread_([this, &server] {
          while (!stop_) {
            const auto start = Clock::now();
            Clock::duration took = Clock::duration::max();
            try {
              RawConnection connection = server.connect();
              if (connection.round_trip(format_request("GET", "/healthz"), 5s).status == 200) {
                took = Clock::now() - start;
              }
            } catch (const std::runtime_error&) {
            }
            times_.push_back(took);
            std::this_thread::sleep_for(250ms);
          }
        }) {}
  Prober(const Prober&) = delete;
  Prober& operator=(const Prober&) = delete;
  ~Prober() { finish(); }

  // finish: stops probing; the time of each exchange, in order.
  const std::vector<Clock::duration>& finish() {
    stop_ = true;
    if (thread_.joinable()) {
      thread_.join();
    }
    return times_;
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<Clock::duration> times_;
  std::thread thread_;
};

// SlowClient: a connection that sends one byte of a request line a second and never finishes it.
struct SlowClient {
  RawConnection connection;
  Clock::time_point first_byte;
  Clock::time_point next_byte;
  std::size_t sent = 0;
  std::optional<Clock::duration> closed_after;  // since the first byte
};

const std::string trickled = "GET /v1/pets?limit=100&offset=0 HTTP/1.1\r\n";

TEST(HttpServerSlowClients, TricklingConnectionsAreClosedOnTimeWhileOthersAreServed) {
  ensure_descriptors(4096);
  adapters::http::HttpLimits limits;
  limits.header_timeout = 1500ms;
  ServerUnderTest server(limits);
  constexpr int waves = 10;  // 30 connections every 300 ms: 300 in all, the flood lasts ~4.5 s
  constexpr int per_wave = 30;
  std::vector<SlowClient> clients;
  clients.reserve(std::size_t{waves} * per_wave);

  Prober prober(server);
  const auto start = Clock::now();
  const auto give_up = start + waves * 300ms + limits.header_timeout + 5s;
  std::size_t open = 0;
  for (int wave = 0; Clock::now() < give_up && (wave < waves || open > 0);) {
    const auto now = Clock::now();
    if (wave < waves && now >= start + wave * 300ms) {
      for (int i = 0; i < per_wave; ++i) {
        SlowClient client{server.connect(), Clock::now(), {}, 0, std::nullopt};
        client.sent = client.connection.send(trickled.substr(0, 1)) ? 1 : 0;
        client.next_byte = client.first_byte + 1s;
        clients.push_back(std::move(client));
        ++open;
      }
      ++wave;
    }
    for (SlowClient& client : clients) {
      if (client.closed_after) {
        continue;
      }
      if (Clock::now() >= client.next_byte && client.sent < trickled.size()) {
        if (client.connection.send(trickled.substr(client.sent, 1))) {
          ++client.sent;
        }
        client.next_byte += 1s;
      }
      if (client.connection.read_until_closed(0ms)) {
        client.closed_after = Clock::now() - client.first_byte;
        --open;
      }
    }
    std::this_thread::sleep_for(20ms);
  }
  const std::vector<Clock::duration> probes = prober.finish();

  ASSERT_EQ(clients.size(), std::size_t{waves} * per_wave);
  for (std::size_t i = 0; i < clients.size(); ++i) {
    ASSERT_TRUE(clients[i].closed_after) << "slow connection " << i << " was never closed";
    // Each byte arrives before the timeout would have run out, so only a deadline for the whole
    // head (not one per read) closes these connections.
    EXPECT_GE(*clients[i].closed_after, limits.header_timeout - 250ms) << i;
    EXPECT_LE(*clients[i].closed_after, limits.header_timeout + 1s)
        << "slow connection " << i << " closed after " << milliseconds(*clients[i].closed_after)
        << " ms";
  }
  EXPECT_GE(probes.size(), std::size_t{8}) << "too few probes during the flood";
  for (std::size_t i = 0; i < probes.size(); ++i) {
    EXPECT_LT(probes[i], 1s) << "probe " << i << " took "
                             << (probes[i] == Clock::duration::max()
                                     ? std::string("forever")
                                     : std::to_string(milliseconds(probes[i])) + " ms");
  }
}

TEST(HttpServerSlowClients, AFloodPastTheCapIsClosedAtOnceAndServiceResumes) {
  ensure_descriptors(4096);
  adapters::http::HttpLimits limits;
  limits.max_connections = 50;
  // The admitted connections, which send nothing, leave by themselves at the header timeout.
  limits.header_timeout = 3s;
  ServerUnderTest server(limits);

  constexpr int flood_size = 200;
  std::vector<RawConnection> flood;
  flood.reserve(flood_size);
  for (int i = 0; i < flood_size; ++i) {
    flood.push_back(server.connect());
  }
  const auto opened = Clock::now();
  // Past the cap a connection is closed at once: within 1.5 s of the last connect, long before
  // the idle timeout, exactly 150 have been closed without a byte.
  std::size_t closed = 0;
  std::vector<std::size_t> admitted;
  const auto deadline = opened + 1500ms;
  for (std::size_t i = 0; i < flood.size(); ++i) {
    const auto left = std::max(Clock::duration::zero(), deadline - Clock::now());
    const auto received =
        flood[i].read_until_closed(std::chrono::duration_cast<std::chrono::milliseconds>(left));
    if (received) {
      EXPECT_EQ(*received, "") << i;
      ++closed;
    } else {
      admitted.push_back(i);
    }
  }
  EXPECT_LT(Clock::now() - opened, limits.header_timeout - 500ms);
  EXPECT_EQ(closed, std::size_t{150});
  ASSERT_EQ(admitted.size(), std::size_t{50});
  // An admitted connection is served as usual.
  EXPECT_EQ(flood[admitted.front()].round_trip(format_request("GET", "/healthz")).status, 200U);

  // The silent admitted ones close at the header timeout; then a newcomer is served again.
  for (std::size_t i : admitted) {
    if (i != admitted.front()) {
      EXPECT_TRUE(flood[i].read_until_closed(limits.header_timeout + 2s)) << i;
    }
  }
  flood.clear();
  bool served = false;
  for (int attempt = 0; attempt < 20 && !served; ++attempt) {
    RawConnection newcomer = server.connect();
    if (newcomer.send(format_request("GET", "/healthz"))) {
      try {
        served = newcomer.read_response(1s).status == 200;
      } catch (const std::runtime_error&) {
        std::this_thread::sleep_for(100ms);
      }
    }
  }
  EXPECT_TRUE(served);
}

}  // namespace
}  // namespace petstore::tests
