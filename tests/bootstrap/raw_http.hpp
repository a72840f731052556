#pragma once
// Raw HTTP/1.1 over POSIX sockets for the command-line tests: requests written by hand, responses
// framed by Content-Length. Deliberately low level: a drain test must tell a complete response
// from a truncated one and from a connection closed before any byte, which a friendlier client
// would hide. Every read and write has a deadline; nothing here raises SIGPIPE.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace petstore::tests {

struct RawResponse {
  int status = 0;  // 0 when no complete response arrived
  std::string head;
  std::string body;

  // header: the first value of header `name` (case-insensitive), "" when absent.
  [[nodiscard]] std::string header(std::string_view name) const;
};

enum class ReadOutcome {
  complete,      // one whole response
  closed_early,  // the connection ended (FIN or reset) before any byte of a response
  truncated,     // the connection ended inside a response
  timed_out,
  malformed,
};

// RawConnection: one TCP connection to HOST:PORT, reading responses one after another.
class RawConnection {
 public:
  explicit RawConnection(std::uint16_t port, const std::string& host = "127.0.0.1");
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  ~RawConnection();

  [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }

  // send_all: writes every byte within 5 s; false when the peer is gone or the time is up.
  bool send_all(std::string_view bytes);

  // read_response: the next response, waiting at most `timeout`.
  ReadOutcome read_response(RawResponse& response,
                            std::chrono::milliseconds timeout = std::chrono::seconds(10));

 private:
  int fd_ = -1;
  std::string buffer_;
};

// make_request: an HTTP/1.1 request; `key` empty sends no Authorization, a non-empty `body` is
// sent as application/json.
[[nodiscard]] std::string make_request(std::string_view method, std::string_view target,
                                       std::string_view key, std::string_view body = {},
                                       bool keep_alive = false);

// http_call: one request on a fresh connection; status 0 when no complete response came.
[[nodiscard]] RawResponse http_call(std::uint16_t port, std::string_view method,
                                    std::string_view target, std::string_view key = {},
                                    std::string_view body = {});

}  // namespace petstore::tests
