// The sd_notify datagram protocol, against a socket the test binds where systemd would: a path
// or an abstract name; and nothing sent, and no failure, without one.

#include "adapters/systemd/service_notifier.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace petstore::tests {
namespace {

using adapters::systemd::ServiceNotifier;

// BoundSocket: a datagram socket bound at `name` ("@..." abstract), read without blocking.
class BoundSocket {
 public:
  explicit BoundSocket(const std::string& name)
      : fd_(::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0)) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(static_cast<char*>(address.sun_path), name.data(), name.size());
    if (name.starts_with('@')) {
      address.sun_path[0] = '\0';
    }
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size());
    EXPECT_EQ(::bind(fd_, reinterpret_cast<const sockaddr*>(&address), length), 0) << name;
  }
  BoundSocket(const BoundSocket&) = delete;
  BoundSocket& operator=(const BoundSocket&) = delete;
  ~BoundSocket() { ::close(fd_); }

  std::string receive() const {
    std::array<char, 512> buffer{};
    const ssize_t got = ::recv(fd_, buffer.data(), buffer.size(), 0);
    return got > 0 ? std::string(buffer.data(), static_cast<std::size_t>(got)) : std::string();
  }

 private:
  int fd_;
};

TEST(ServiceNotifier, SendsEachStateToASocketPath) {
  const TempDir dir;
  const std::string path = (dir.path() / "notify").string();
  const BoundSocket socket(path);
  const ServiceNotifier notifier(path);
  EXPECT_TRUE(notifier.notify("READY=1"));
  EXPECT_TRUE(notifier.notify("STOPPING=1"));
  EXPECT_EQ(socket.receive(), "READY=1");
  EXPECT_EQ(socket.receive(), "STOPPING=1");
}

TEST(ServiceNotifier, SendsToAnAbstractSocket) {
  const std::string name = "@petstore-notify-test-" + std::to_string(::getpid());
  const BoundSocket socket(name);
  EXPECT_TRUE(ServiceNotifier(name).notify("READY=1"));
  EXPECT_EQ(socket.receive(), "READY=1");
}

TEST(ServiceNotifier, WithoutASocketNothingIsSentAndNothingFails) {
  EXPECT_FALSE(ServiceNotifier("").notify("READY=1"));
  EXPECT_FALSE(ServiceNotifier("relative/path").notify("READY=1"));
  const TempDir dir;
  EXPECT_FALSE(ServiceNotifier((dir.path() / "nobody-listens").string()).notify("READY=1"));
}

}  // namespace
}  // namespace petstore::tests
