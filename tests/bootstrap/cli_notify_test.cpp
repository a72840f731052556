// systemd readiness (Type=notify) seen from the real binary: with NOTIFY_SOCKET set, `petstore
// serve` sends READY=1 once it listens and STOPPING=1 when SIGTERM makes it drain.

#include <array>
#include <chrono>
#include <cstring>
#include <signal.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// receive_within: the next datagram on `fd`, or "" after `limit`.
std::string receive_within(int fd, std::chrono::milliseconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  std::array<char, 512> buffer{};
  while (std::chrono::steady_clock::now() < give_up) {
    const ssize_t got = ::recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (got > 0) {
      return std::string(buffer.data(), static_cast<std::size_t>(got));
    }
    std::this_thread::sleep_for(10ms);
  }
  return {};
}

TEST(CliNotifyTest, ServeSaysReadyWhenListeningAndStoppingWhenDraining) {
  const TempDir dir;
  const auto keys = dir.path() / "keys";
  ASSERT_FALSE(make_key(keys).empty());
  const std::string socket_path = (dir.path() / "notify").string();
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(static_cast<char*>(address.sun_path), socket_path.data(), socket_path.size());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);

  ServedPetstore served(petstore(serve_args(keys), {{"NOTIFY_SOCKET", socket_path}}));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(receive_within(fd, 10s), "READY=1");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  EXPECT_EQ(receive_within(fd, 1s), "STOPPING=1");
  ::close(fd);
}

}  // namespace
}  // namespace petstore::tests
