#include "bootstrap/raw_http.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace petstore::tests {
namespace {

using Clock = std::chrono::steady_clock;

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

int remaining_ms(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<std::int64_t>(left, 0, 60'000));
}

// body_size: how many body bytes follow `head`; nullopt when the body runs to the close.
std::optional<std::size_t> body_size(const RawResponse& response) {
  if (response.status / 100 == 1 || response.status == 204 || response.status == 304) {
    return 0;
  }
  const std::string length = response.header("Content-Length");
  if (length.empty()) {
    return std::nullopt;
  }
  std::size_t size = 0;
  std::from_chars(length.data(), length.data() + length.size(), size);
  return size;
}

}  // namespace

std::string RawResponse::header(std::string_view name) const {
  std::size_t start = head.find("\r\n");
  while (start != std::string::npos && start + 2 < head.size()) {
    start += 2;
    const std::size_t end = std::min(head.find("\r\n", start), head.size());
    const std::string_view line = std::string_view(head).substr(start, end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && equal_ignoring_case(line.substr(0, colon), name)) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
        value.remove_prefix(1);
      }
      while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) {
        value.remove_suffix(1);
      }
      return std::string(value);
    }
    start = end == head.size() ? std::string::npos : end;
  }
  return {};
}

RawConnection::RawConnection(std::uint16_t port, const std::string& host) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    return;
  }
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ >= 0 &&
      ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

bool RawConnection::send_all(std::string_view bytes) {
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (fd_ >= 0 && !bytes.empty()) {
    pollfd ready{fd_, POLLOUT, 0};
    if (::poll(&ready, 1, remaining_ms(deadline)) <= 0) {
      return false;
    }
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return fd_ >= 0;
}

ReadOutcome RawConnection::read_response(RawResponse& response, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  response = RawResponse{};
  for (;;) {
    const std::size_t head_end = buffer_.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      RawResponse parsed;
      parsed.head = buffer_.substr(0, head_end);
      if (parsed.head.rfind("HTTP/1.", 0) != 0 || parsed.head.size() < 12) {
        return ReadOutcome::malformed;
      }
      std::from_chars(parsed.head.data() + 9, parsed.head.data() + 12, parsed.status);
      const auto size = body_size(parsed);
      if (size && buffer_.size() >= head_end + 4 + *size) {
        parsed.body = buffer_.substr(head_end + 4, *size);
        buffer_.erase(0, head_end + 4 + *size);
        response = std::move(parsed);
        return ReadOutcome::complete;
      }
    }
    if (fd_ < 0) {
      return ReadOutcome::closed_early;
    }
    pollfd ready{fd_, POLLIN, 0};
    const int polled = ::poll(&ready, 1, remaining_ms(deadline));
    if (polled == 0) {
      return ReadOutcome::timed_out;
    }
    std::array<char, 8192> chunk{};
    const ssize_t got = polled < 0 ? -1 : ::recv(fd_, chunk.data(), chunk.size(), 0);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got > 0) {
      buffer_.append(chunk.data(), static_cast<std::size_t>(got));
      continue;
    }
    if (buffer_.empty()) {
      return ReadOutcome::closed_early;
    }
    if (head_end != std::string::npos) {
      RawResponse parsed;
      parsed.head = buffer_.substr(0, head_end);
      std::from_chars(parsed.head.data() + 9, parsed.head.data() + 12, parsed.status);
      if (!body_size(parsed)) {  // the body ran to the close: complete
        parsed.body = buffer_.substr(head_end + 4);
        buffer_.clear();
        response = std::move(parsed);
        return ReadOutcome::complete;
      }
    }
    return ReadOutcome::truncated;
  }
}

std::string make_request(std::string_view method, std::string_view target, std::string_view key,
                         std::string_view body, bool keep_alive) {
  std::string request =
      std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!key.empty()) {
    request += "Authorization: Bearer " + std::string(key) + "\r\n";
  }
  if (!body.empty()) {
    request += "Content-Type: application/json\r\n";
  }
  if (!body.empty() || method == "POST") {
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  }
  request += keep_alive ? "\r\n" : "Connection: close\r\n\r\n";
  request += body;
  return request;
}

RawResponse http_call(std::uint16_t port, std::string_view method, std::string_view target,
                      std::string_view key, std::string_view body) {
  RawConnection connection(port);
  RawResponse response;
  if (connection.send_all(make_request(method, target, key, body))) {
    (void)connection.read_response(response);
  }
  return response;
}

}  // namespace petstore::tests
