#include "support/postgres_cutting_proxy.hpp"

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;

// socket_name: the server's socket file in the directory named by `host`, for the port that
// both the server and libpq take (PGPORT, else 5432).
std::string socket_name() {
  const char* port = std::getenv("PGPORT");  // NOLINT(concurrency-mt-unsafe): read, never set
  return std::string(".s.PGSQL.") + (port != nullptr && *port != '\0' ? port : "5432");
}

// shutdown_error: the ErrorResponse a server in a fast shutdown sends before it closes a session.
std::string shutdown_error() {
  using namespace std::string_literals;
  const std::string fields =
      "SFATAL\0VFATAL\0C57P01\0"s + "Mterminating connection due to administrator command\0\0"s;
  const auto length = static_cast<std::uint32_t>(fields.size() + 4);
  std::string message = "E";
  for (const unsigned shift : {24U, 16U, 8U, 0U}) {
    message.push_back(static_cast<char>((length >> shift) & 0xFFU));
  }
  return message + fields;
}

sockaddr_un address_of(const fs::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof(address.sun_path)) {
    throw std::runtime_error("socket path too long: " + text);
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

// send_all: all of `bytes` to `fd` (a blocking socket); false when the peer is gone.
bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) {
      continue;
    }
    if (sent <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// receive: what `fd` has now, appended to `into`; false at end of stream or on an error.
bool receive(int fd, std::string& into) {
  std::array<char, 65536> buffer{};
  ssize_t got = 0;
  do {
    got = ::recv(fd, buffer.data(), buffer.size(), 0);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {
    return false;
  }
  into.append(buffer.data(), static_cast<std::size_t>(got));
  return true;
}

void close_socket(int fd) {
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

// A client's connection and the proxy's to the server, with the server's bytes not yet forwarded
// (a message is forwarded only once it is whole).
struct Link {
  int client;
  int server;
  std::string from_server;
};

}  // namespace

PostgresCuttingProxy::PostgresCuttingProxy(const PostgresServer& server)
    : server_socket_(server.socket_dir() / socket_name()) {
  std::string dir = (fs::temp_directory_path() / "petstore-pgproxy-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  dir_ = dir;
  try {
    (void)address_of(server_socket_);  // checked here, so that the thread's calls cannot throw
    const sockaddr_un address = address_of(dir_ / socket_name());
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0 ||
        ::bind(listener_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(listener_, 64) != 0 || ::pipe2(stop_pipe_, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::string("the proxy cannot listen: ") + std::strerror(errno));
    }
  } catch (...) {
    close_all();
    throw;
  }
  thread_ = std::thread([this] { serve(); });
}

PostgresCuttingProxy::~PostgresCuttingProxy() {
  (void)::write(stop_pipe_[1], "x", 1);
  if (thread_.joinable()) {
    thread_.join();
  }
  close_all();
}

void PostgresCuttingProxy::close_all() {
  for (const int fd : {listener_, stop_pipe_[0], stop_pipe_[1]}) {
    if (fd >= 0) {
      ::close(fd);
    }
  }
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

std::string PostgresCuttingProxy::url(const std::string& database) const {
  return "postgresql:///" + database + "?host=" + dir_.string() + "&user=petstore";
}

void PostgresCuttingProxy::arm(Cut when, std::string tag) {
  const std::lock_guard lock(mutex_);
  armed_ = Armed{when, std::move(tag)};
}

std::optional<PostgresCuttingProxy::Cut> PostgresCuttingProxy::take_armed(const std::string& tag) {
  const std::lock_guard lock(mutex_);
  if (!armed_ || armed_->tag != tag) {
    return std::nullopt;
  }
  const Cut when = armed_->when;
  armed_.reset();
  return when;
}

void PostgresCuttingProxy::serve() {
  std::vector<Link> links;
  // forward: the whole messages `link` holds from the server, to its client, until an armed cut
  // ends the link; false when the link is to be closed.
  const auto forward = [this](Link& link) {
    constexpr std::size_t head = 5;  // type byte, then a length that counts itself
    while (link.from_server.size() >= head) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(link.from_server.data());
      const std::uint32_t length = (std::uint32_t{bytes[1]} << 24U) |
                                   (std::uint32_t{bytes[2]} << 16U) |
                                   (std::uint32_t{bytes[3]} << 8U) | std::uint32_t{bytes[4]};
      const std::size_t total = 1 + std::size_t{length};
      if (length < 4) {
        return false;
      }
      if (link.from_server.size() < total) {
        return true;
      }
      const std::string_view message(link.from_server.data(), total);
      if (message.front() == 'C') {
        const std::string tag(message.substr(head, total - head - 1));  // without its NUL
        if (const auto cut = take_armed(tag)) {
          // Counted before anything is sent: the client may act on the answer before this thread
          // runs again.
          ++cuts_;
          if (*cut != Cut::before && *cut != Cut::before_then_stall) {
            (void)send_all(link.client, message);
          }
          if (*cut == Cut::after_then_fatal) {
            (void)send_all(link.client, shutdown_error());
          }
          if (*cut == Cut::before_then_stall) {
            stalled_.store(true);
          }
          return false;
        }
      }
      if (!send_all(link.client, message)) {
        return false;
      }
      link.from_server.erase(0, total);
    }
    return true;
  };
  for (;;) {
    if (stalled_.load()) {
      // Only a stop is heard; bytes and connections wait in the kernel's buffers and backlog.
      pollfd stop{stop_pipe_[0], POLLIN, 0};
      if (::poll(&stop, 1, 20) > 0) {
        break;
      }
      continue;
    }
    std::vector<pollfd> fds{{stop_pipe_[0], POLLIN, 0}, {listener_, POLLIN, 0}};
    for (const auto& link : links) {
      fds.push_back({link.client, POLLIN, 0});
      fds.push_back({link.server, POLLIN, 0});
    }
    if (::poll(fds.data(), fds.size(), 20) < 0) {  // a stall begins within a poll
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    if (fds[0].revents != 0) {
      break;
    }
    const Refusal refusal = refusal_.load();
    std::vector<bool> open(links.size(), refusal == Refusal::none);
    for (std::size_t i = 0; i < links.size(); ++i) {
      Link& link = links[i];
      if (open[i] && fds[2 + (2 * i)].revents != 0) {
        std::string bytes;
        open[i] = receive(link.client, bytes) && send_all(link.server, bytes);
        const std::lock_guard lock(mutex_);
        sent_ += bytes;
      }
      if (open[i] && fds[3 + (2 * i)].revents != 0) {
        open[i] = receive(link.server, link.from_server) && forward(link);
      }
    }
    for (std::size_t i = links.size(); i-- > 0;) {
      if (!open[i]) {
        close_socket(links[i].client);
        close_socket(links[i].server);
        links.erase(links.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    if ((fds[1].revents & POLLIN) != 0 && refusal != Refusal::none) {
      const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client >= 0) {
        // The client's start-up packet first: closing with it unread resets the connection.
        pollfd first{client, POLLIN, 0};
        (void)::poll(&first, 1, 1000);
        if (refusal == Refusal::close) {
          std::string ignored;
          (void)receive(client, ignored);
          ::shutdown(client, SHUT_RDWR);
        }
        ::close(client);
      }
    } else if ((fds[1].revents & POLLIN) != 0) {
      const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      const int server = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      const sockaddr_un address = address_of(server_socket_);
      if (client >= 0 && server >= 0 &&
          ::connect(server, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0) {
        links.push_back({client, server, {}});
      } else {
        for (const int fd : {client, server}) {
          if (fd >= 0) {
            ::close(fd);
          }
        }
      }
    }
  }
  for (const auto& link : links) {
    close_socket(link.client);
    close_socket(link.server);
  }
}

}  // namespace petstore::tests
