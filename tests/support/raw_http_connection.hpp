#pragma once
// RawConnection: a blocking TCP client that writes exactly the bytes a test gives it and reads
// responses against a deadline. Raw bytes let a test do what a polite HTTP client never does:
// send a malformed request line, pipeline requests in one write, stop half-way through a request,
// or never read. Not thread-safe: one connection belongs to one thread at a time.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "support/raw_http_request.hpp"
#include "support/raw_http_response.hpp"

namespace petstore::tests {

inline constexpr std::chrono::milliseconds default_read_timeout{10'000};
// A send that cannot finish in this time (the server stopped reading) reports failure.
inline constexpr std::chrono::milliseconds send_timeout{5'000};

// ReadOutcome: how try_read_response ended. A drain test must tell a complete response from a
// truncated one and from a connection closed before any byte, which a friendlier client hides.
enum class ReadOutcome {
  complete,      // one whole response
  closed_early,  // the connection ended (FIN or reset) before any byte of a response
  truncated,     // the connection ended inside a response
  timed_out,
  malformed,
};

// loopback: "127.0.0.1:PORT".
[[nodiscard]] std::string loopback(std::uint16_t port);

class RawConnection {
 public:
  // connect: a connection to `address` ("127.0.0.1:PORT"); throws std::runtime_error when it
  // cannot be made. `receive_buffer` > 0 shrinks SO_RCVBUF first (to play a client that does
  // not read); a `source_host` such as "127.0.0.2" plays another client address.
  [[nodiscard]] static RawConnection connect(std::string_view address, int receive_buffer = 0,
                                             std::string_view source_host = {});
  // try_connect: as connect, but nullopt when the connection is refused, or reset before
  // connect() returned: a listener closed with the connection still in its backlog (a server
  // that stops accepting) resets it, and that too is "not accepted".
  [[nodiscard]] static std::optional<RawConnection> try_connect(std::string_view address,
                                                                int receive_buffer = 0,
                                                                std::string_view source_host = {});

  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  RawConnection(RawConnection&& other) noexcept;
  RawConnection& operator=(RawConnection&& other) noexcept;
  ~RawConnection();

  // send: writes all of `bytes` at once; false when the server has closed or reset the connection,
  // or has not taken them within send_timeout.
  bool send(std::string_view bytes);

  // try_read_response: the next whole response into `out`, waiting at most `timeout`; any other
  // outcome leaves `out` alone.
  ReadOutcome try_read_response(RawResponse& out,
                                std::chrono::milliseconds timeout = default_read_timeout);

  // read_response: the next whole response. Throws std::runtime_error, which fails the test, when
  // none arrives within `timeout`, the server closes first, or the bytes are not HTTP.
  [[nodiscard]] RawResponse read_response(std::chrono::milliseconds timeout = default_read_timeout);

  // round_trip: send(request), then read_response().
  [[nodiscard]] RawResponse round_trip(std::string_view request,
                                       std::chrono::milliseconds timeout = default_read_timeout);

  // try_round_trip: as round_trip, but nullopt when the exchange fails (what a killed server
  // looks like to a load test).
  [[nodiscard]] std::optional<RawResponse> try_round_trip(
      std::string_view request, std::chrono::milliseconds timeout = default_read_timeout);

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

// http_call: `request` on a fresh connection to 127.0.0.1:`port`; status 0 when no complete
// response came within `timeout`.
[[nodiscard]] RawResponse http_call(std::uint16_t port, std::string_view request,
                                    std::chrono::milliseconds timeout = default_read_timeout);

// http_call: api_request(method, target, key, body) on a fresh connection, as above.
[[nodiscard]] RawResponse http_call(std::uint16_t port, std::string_view method,
                                    std::string_view target, std::string_view key = {},
                                    std::string_view body = {});

}  // namespace petstore::tests
