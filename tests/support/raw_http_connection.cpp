#include "support/raw_http_connection.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace petstore::tests {
namespace {

sockaddr_in parse_address(std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos) {
    throw std::runtime_error("not HOST:PORT: " + std::string(address));
  }
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port =
      htons(static_cast<std::uint16_t>(std::stoi(std::string(address.substr(colon + 1)))));
  const std::string host(address.substr(0, colon));
  if (::inet_pton(AF_INET, host.c_str(), &socket_address.sin_addr) != 1) {
    throw std::runtime_error("not an IPv4 address: " + host);
  }
  return socket_address;
}

}  // namespace

std::string loopback(std::uint16_t port) { return "127.0.0.1:" + std::to_string(port); }

std::optional<RawConnection> RawConnection::try_connect(std::string_view address,
                                                        int receive_buffer,
                                                        std::string_view source_host) {
  const sockaddr_in socket_address = parse_address(address);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  RawConnection connection(fd);
  if (receive_buffer > 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
  if (!source_host.empty()) {
    sockaddr_in source = parse_address(std::string(source_host) + ":0");
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&source), sizeof source) != 0) {
      throw std::runtime_error(std::string("bind: ") + std::strerror(errno));
    }
  }
  const int no_delay = 1;  // each send() leaves at once, so a test controls what arrives when
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &no_delay, sizeof no_delay);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&socket_address), sizeof socket_address) !=
      0) {
    if (errno == ECONNREFUSED || errno == ECONNRESET) {
      return std::nullopt;
    }
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
  }
  return connection;
}

RawConnection RawConnection::connect(std::string_view address, int receive_buffer,
                                     std::string_view source_host) {
  auto connection = try_connect(address, receive_buffer, source_host);
  if (!connection) {
    throw std::runtime_error("connection refused by " + std::string(address));
  }
  return std::move(*connection);
}

RawConnection::RawConnection(RawConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}

RawConnection& RawConnection::operator=(RawConnection&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = std::exchange(other.fd_, -1);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

bool RawConnection::send(std::string_view bytes) {
  const auto deadline = std::chrono::steady_clock::now() + send_timeout;
  while (!bytes.empty()) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd poll_fd{fd_, POLLOUT, 0};
    const int ready = ::poll(&poll_fd, 1, static_cast<int>(std::max<long>(left.count(), 0)));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready == 0) {
      return false;
    }
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0 && (errno == EINTR || errno == EAGAIN)) {
      continue;
    }
    if (sent <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

RawConnection::Fill RawConnection::fill(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd poll_fd{fd_, POLLIN, 0};
    const int ready = ::poll(&poll_fd, 1, static_cast<int>(std::max<long>(left.count(), 0)));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready == 0) {
      return Fill::timeout;
    }
    char chunk[65536];
    const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return Fill::closed;  // FIN, or a reset
    }
    buffer_.append(chunk, static_cast<std::size_t>(got));
    return Fill::data;
  }
}

ReadOutcome RawConnection::try_read_response(RawResponse& out, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    switch (parse_response(buffer_, out)) {
      case ParseOutcome::complete:
        return ReadOutcome::complete;
      case ParseOutcome::malformed:
        return ReadOutcome::malformed;
      case ParseOutcome::incomplete:
        break;
    }
    switch (fill(deadline)) {
      case Fill::data:
        break;
      case Fill::closed:
        return buffer_.empty() ? ReadOutcome::closed_early : ReadOutcome::truncated;
      case Fill::timeout:
        return ReadOutcome::timed_out;
    }
  }
}

RawResponse RawConnection::read_response(std::chrono::milliseconds timeout) {
  RawResponse response;
  switch (try_read_response(response, timeout)) {
    case ReadOutcome::complete:
      return response;
    case ReadOutcome::malformed:
      throw std::runtime_error("the server sent a malformed response: " + buffer_);
    case ReadOutcome::closed_early:
    case ReadOutcome::truncated:
      throw std::runtime_error("the server closed the connection before a whole response; got: " +
                               buffer_);
    case ReadOutcome::timed_out:
      break;
  }
  throw std::runtime_error("no whole response within the timeout; got: " + buffer_);
}

RawResponse RawConnection::round_trip(std::string_view request, std::chrono::milliseconds timeout) {
  if (!send(request)) {
    throw std::runtime_error("the server closed the connection before the request was sent");
  }
  return read_response(timeout);
}

std::optional<RawResponse> RawConnection::try_round_trip(std::string_view request,
                                                         std::chrono::milliseconds timeout) {
  RawResponse response;
  if (!send(request) || try_read_response(response, timeout) != ReadOutcome::complete) {
    return std::nullopt;
  }
  return response;
}

std::optional<std::string> RawConnection::read_until_closed(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    switch (fill(deadline)) {
      case Fill::data:
        break;
      case Fill::closed:
        return std::exchange(buffer_, {});
      case Fill::timeout:
        return std::nullopt;
    }
  }
}

RawResponse http_call(std::uint16_t port, std::string_view request,
                      std::chrono::milliseconds timeout) {
  auto connection = RawConnection::try_connect(loopback(port));
  if (!connection) {
    return {};
  }
  return connection->try_round_trip(request, timeout).value_or(RawResponse{});
}

RawResponse http_call(std::uint16_t port, std::string_view method, std::string_view target,
                      std::string_view key, std::string_view body) {
  return http_call(port, api_request(method, target, key, body));
}

}  // namespace petstore::tests
