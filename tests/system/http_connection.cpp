#include "http_connection.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace petstore::tests::system {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<std::size_t> to_size(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// parse_head: status line and headers of `head` (without the blank line), nullopt if malformed.
std::optional<HttpResponse> parse_head(std::string_view head) {
  HttpResponse response;
  const auto line_end = head.find("\r\n");
  const std::string_view status_line = head.substr(0, line_end);
  if (status_line.size() < 12 || status_line.substr(0, 9) != "HTTP/1.1 ") {
    return std::nullopt;
  }
  const auto status = to_size(status_line.substr(9, 3));
  if (!status) {
    return std::nullopt;
  }
  response.status = static_cast<int>(*status);
  std::size_t at = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (at < head.size()) {
    auto end = head.find("\r\n", at);
    if (end == std::string_view::npos) {
      end = head.size();
    }
    const std::string_view line = head.substr(at, end - at);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      return std::nullopt;
    }
    response.headers.emplace_back(std::string(line.substr(0, colon)),
                                  std::string(trim(line.substr(colon + 1))));
    at = end + 2;
  }
  return response;
}

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) {
      return value;
    }
  }
  return std::nullopt;
}

std::optional<HttpConnection> HttpConnection::open(std::uint16_t port,
                                                   std::chrono::milliseconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return std::nullopt;
  }
  HttpConnection connection(fd);
  timeval limit{};
  limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  limit.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  const int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    return std::nullopt;
  }
  return connection;
}

HttpConnection::HttpConnection(HttpConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), received_(std::move(other.received_)) {}

HttpConnection& HttpConnection::operator=(HttpConnection&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    received_ = std::move(other.received_);
  }
  return *this;
}

HttpConnection::~HttpConnection() { close(); }

void HttpConnection::close() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

std::optional<HttpResponse> HttpConnection::request(std::string_view method,
                                                    std::string_view target,
                                                    std::string_view api_key,
                                                    std::string_view body) {
  if (fd_ < 0) {
    return std::nullopt;
  }
  std::string message;
  message.append(method).append(" ").append(target).append(" HTTP/1.1\r\n");
  message.append("Host: 127.0.0.1\r\nAuthorization: Bearer ").append(api_key).append("\r\n");
  if (!body.empty()) {
    message.append("Content-Type: application/json\r\nContent-Length: ")
        .append(std::to_string(body.size()))
        .append("\r\n");
  }
  message.append("\r\n").append(body);
  if (!send_all(message)) {
    close();
    return std::nullopt;
  }
  auto response = read_response();
  if (!response) {
    close();
    return std::nullopt;
  }
  if (const auto connection = response->header("Connection");
      connection && iequals(*connection, "close")) {
    close();
  }
  return response;
}

bool HttpConnection::send_all(std::string_view bytes) {
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

bool HttpConnection::fill() {
  char chunk[8192];
  for (;;) {
    const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return false;
    }
    received_.append(chunk, static_cast<std::size_t>(got));
    return true;
  }
}

std::optional<HttpResponse> HttpConnection::read_response() {
  std::size_t head_end = 0;
  while ((head_end = received_.find("\r\n\r\n")) == std::string::npos) {
    if (!fill()) {
      return std::nullopt;
    }
  }
  auto response = parse_head(std::string_view(received_).substr(0, head_end));
  if (!response) {
    return std::nullopt;
  }
  const auto length_text = response->header("Content-Length");
  const auto length = length_text ? to_size(*length_text) : std::optional<std::size_t>{0};
  if (!length || response->header("Transfer-Encoding")) {
    return std::nullopt;  // chunked bodies are not needed by these tests
  }
  const std::size_t body_start = head_end + 4;
  while (received_.size() < body_start + *length) {
    if (!fill()) {
      return std::nullopt;  // the body was cut short: the response never fully arrived
    }
  }
  response->body = received_.substr(body_start, *length);
  received_.erase(0, body_start + *length);
  return response;
}

}  // namespace petstore::tests::system
