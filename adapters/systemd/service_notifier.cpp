#include "adapters/systemd/service_notifier.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace petstore::adapters::systemd {

ServiceNotifier ServiceNotifier::from_environment() {
  const char* path = std::getenv("NOTIFY_SOCKET");  // NOLINT(concurrency-mt-unsafe): at start
  return ServiceNotifier(path != nullptr ? path : "");
}

bool ServiceNotifier::notify(std::string_view state) const {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const bool abstract = socket_path_.starts_with('@');
  if (socket_path_.size() < 2 || (!abstract && !socket_path_.starts_with('/')) ||
      socket_path_.size() >= sizeof(address.sun_path)) {
    return false;
  }
  std::memcpy(static_cast<char*>(address.sun_path), socket_path_.data(), socket_path_.size());
  if (abstract) {
    address.sun_path[0] = '\0';  // an abstract socket: "@name" is written "\0name"
  }
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    return false;
  }
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket_path_.size());
  const ssize_t sent = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                                reinterpret_cast<const sockaddr*>(&address), length);
  ::close(fd);
  return sent == static_cast<ssize_t>(state.size());
}

}  // namespace petstore::adapters::systemd
