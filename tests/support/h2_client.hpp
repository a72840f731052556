#pragma once
// H2Client: a blocking HTTP/2 client for tests, on nghttp2's client session over a plain TCP
// connection with prior knowledge (h2c): it sends requests on streams of their own, at once or
// one after another, and also raw bytes, so that a test can send frames no polite client sends
// (floods, resets, oversized headers). Not thread-safe: one client belongs to one thread.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::tests {

using H2Fields = std::vector<std::pair<std::string, std::string>>;

struct H2Request {
  H2Request(std::string method_name, std::string target, H2Fields header_fields = {},
            std::string content = {}, H2Fields trailer_fields = {})
      : method(std::move(method_name)),
        path(std::move(target)),
        fields(std::move(header_fields)),
        body(std::move(content)),
        trailers(std::move(trailer_fields)) {}

  std::string method;
  std::string path;
  H2Fields fields;  // beyond :method, :path, :scheme (http) and :authority
  std::string body;
  H2Fields trailers;  // a trailer section after the body, when not empty
};

struct H2Response {
  unsigned status = 0;  // 0: the stream ended without a response (reset)
  H2Fields fields;
  std::string body;
  std::uint32_t reset_code = 0;  // the RST_STREAM's error code, when the server reset the stream
  bool reset = false;

  // field: the first value of the field named `name` (lower case), if any.
  [[nodiscard]] std::optional<std::string> field(std::string_view name) const;
};

class H2Client {
 public:
  // connect: a connection to `address` ("127.0.0.1:PORT") that has sent its preface and SETTINGS;
  // throws std::runtime_error when it cannot be made.
  [[nodiscard]] static H2Client connect(std::string_view address);
  H2Client(H2Client&& other) noexcept;
  H2Client& operator=(H2Client&& other) noexcept;
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;
  ~H2Client();

  // send: one request, waiting at most `timeout` for its stream to end; throws
  // std::runtime_error when it does not, or the connection ends first.
  H2Response send(const H2Request& request,
                  std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // send_all: the requests on as many streams at once, their responses in the same order.
  std::vector<H2Response> send_all(const std::vector<H2Request>& requests,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // send_raw: bytes written as they are, past nghttp2 (a hostile frame); false when the server
  // has closed the connection.
  bool send_raw(std::string_view bytes);

  // run_until_closed: reads and answers frames until the server closes the connection; false when
  // it is still open after `timeout`.
  bool run_until_closed(std::chrono::milliseconds timeout);

  // goaway: the error code of the GOAWAY the server sent, if one came.
  [[nodiscard]] std::optional<std::uint32_t> goaway() const;

  // settings: the value of each setting the server's first SETTINGS frame gave, by identifier.
  [[nodiscard]] std::optional<std::uint32_t> setting(std::int32_t id) const;

  // bytes_received: every byte the server sent so far.
  [[nodiscard]] std::size_t bytes_received() const;

  struct State;

 private:
  explicit H2Client(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The client connection preface (RFC 9113 section 3.4) without the SETTINGS frame that follows it.
inline constexpr std::string_view h2_preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// Frame types and flags (RFC 9113 section 6), for raw frames.
namespace h2 {
inline constexpr std::uint8_t data = 0x0;
inline constexpr std::uint8_t headers = 0x1;
inline constexpr std::uint8_t rst_stream = 0x3;
inline constexpr std::uint8_t settings = 0x4;
inline constexpr std::uint8_t ping = 0x6;
inline constexpr std::uint8_t window_update = 0x8;
inline constexpr std::uint8_t continuation = 0x9;
inline constexpr std::uint8_t end_stream = 0x1;
inline constexpr std::uint8_t end_headers = 0x4;
}  // namespace h2

// h2_frame: one raw HTTP/2 frame (RFC 9113 section 4.1): its 9-byte header and `payload`.
[[nodiscard]] std::string h2_frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream_id,
                                   std::string_view payload);

// hpack_literal: one field as an HPACK literal without indexing, with a new name and no Huffman
// coding (RFC 7541 section 6.2.2); name and value shorter than 127 bytes.
[[nodiscard]] std::string hpack_literal(std::string_view name, std::string_view value);

// h2_get_headers: a raw HEADERS frame (END_HEADERS, END_STREAM) asking GET `path` on `stream_id`,
// with `fields` after the pseudo-header fields.
[[nodiscard]] std::string h2_get_headers(std::uint32_t stream_id, std::string_view path,
                                         const H2Fields& fields = {});

// H2Frame: one frame as received (RFC 9113 section 4.1).
struct H2Frame {
  std::uint8_t type = 0;
  std::uint8_t flags = 0;
  std::uint32_t stream_id = 0;
  std::string payload;
};

// h2_frames: the whole frames at the start of `bytes` (what a server sent, from its SETTINGS on).
[[nodiscard]] std::vector<H2Frame> h2_frames(std::string_view bytes);

// h2_goaway_code: the error code of the first GOAWAY frame among the frames in `bytes` (what a
// server sent, from its SETTINGS on), if there is one.
[[nodiscard]] std::optional<std::uint32_t> h2_goaway_code(std::string_view bytes);

}  // namespace petstore::tests
