#pragma once
// RawConnection: a blocking TCP client that writes exactly the bytes a test gives it and reads
// responses against a deadline. Raw bytes let a test do what a polite HTTP client never does:
// send a malformed request line, pipeline requests in one write, stop half-way through a request,
// or never read. Not thread-safe: one connection belongs to one thread at a time.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/raw_http_response.hpp"

namespace petstore::tests {

using Headers = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::chrono::milliseconds default_read_timeout{10'000};

// format_request: an HTTP/1.1 request with `Host: petstore.test`, then `headers`, then
// Content-Length when there is a body or the method is POST, then the body.
// Example: format_request("GET", "/v1/pets", {{"Authorization", bearer(test_key_a)}}).
[[nodiscard]] std::string format_request(std::string_view method, std::string_view target,
                                         const Headers& headers = {}, std::string_view body = {});

// bearer: the Authorization value that presents `key`.
[[nodiscard]] std::string bearer(std::string_view key);

class RawConnection {
 public:
  // connect: a connection to `address` ("127.0.0.1:PORT"); throws std::runtime_error when it
  // cannot be made. `receive_buffer` > 0 shrinks SO_RCVBUF first (to play a client that does
  // not read); a `source_host` such as "127.0.0.2" plays another client address.
  [[nodiscard]] static RawConnection connect(std::string_view address, int receive_buffer = 0,
                                             std::string_view source_host = {});
  // try_connect: as connect, but nullopt when the connection is refused.
  [[nodiscard]] static std::optional<RawConnection> try_connect(std::string_view address,
                                                                int receive_buffer = 0,
                                                                std::string_view source_host = {});

  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  RawConnection(RawConnection&& other) noexcept;
  RawConnection& operator=(RawConnection&& other) noexcept;
  ~RawConnection();

  // send: writes all of `bytes` at once; false when the server has closed or reset the connection.
  bool send(std::string_view bytes);

  // read_response: the next whole response. Throws std::runtime_error, which fails the test, when
  // none arrives within `timeout`, the server closes first, or the bytes are not HTTP.
  [[nodiscard]] RawResponse read_response(std::chrono::milliseconds timeout = default_read_timeout);

  // round_trip: send(request), then read_response().
  [[nodiscard]] RawResponse round_trip(std::string_view request,
                                       std::chrono::milliseconds timeout = default_read_timeout);

  // read_until_closed: the bytes received and not yet read as responses, up to the moment the
  // server closes the connection (FIN or reset); nullopt when it is still open after `timeout`.
  [[nodiscard]] std::optional<std::string> read_until_closed(std::chrono::milliseconds timeout);

 private:
  explicit RawConnection(int fd) : fd_(fd) {}
  enum class Fill { data, closed, timeout };
  Fill fill(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  std::string buffer_;  // received, not yet taken as a response
};

}  // namespace petstore::tests
