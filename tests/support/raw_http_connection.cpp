#include "support/raw_http_connection.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

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

std::string format_request(std::string_view method, std::string_view target, const Headers& headers,
                           std::string_view body) {
  std::string request;
  request.append(method).append(" ").append(target).append(" HTTP/1.1\r\n");
  request.append("Host: petstore.test\r\n");
  for (const auto& [name, value] : headers) {
    request.append(name).append(": ").append(value).append("\r\n");
  }
  if (!body.empty() || method == "POST") {
    request.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
  }
  request.append("\r\n").append(body);
  return request;
}

std::string bearer(std::string_view key) { return "Bearer " + std::string(key); }

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
    if (errno == ECONNREFUSED) {
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
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
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

RawResponse RawConnection::read_response(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    RawResponse response;
    switch (parse_response(buffer_, response)) {
      case ParseOutcome::complete:
        return response;
      case ParseOutcome::malformed:
        throw std::runtime_error("the server sent a malformed response: " + buffer_);
      case ParseOutcome::incomplete:
        break;
    }
    switch (fill(deadline)) {
      case Fill::data:
        break;
      case Fill::closed:
        throw std::runtime_error("the server closed the connection before a whole response; got: " +
                                 buffer_);
      case Fill::timeout:
        throw std::runtime_error("no whole response within the timeout; got: " + buffer_);
    }
  }
}

RawResponse RawConnection::round_trip(std::string_view request, std::chrono::milliseconds timeout) {
  if (!send(request)) {
    throw std::runtime_error("the server closed the connection before the request was sent");
  }
  return read_response(timeout);
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

}  // namespace petstore::tests
