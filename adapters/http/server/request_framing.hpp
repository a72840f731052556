#pragma once
// Request framing: the rules of RFC 9112 the server enforces around Beast's parser, which leaves
// them to its user. The connection's read buffer has a hard ceiling; a chunk-size line (with its
// extensions) and the trailer section are bounded as a request's head is; Transfer-Encoding and
// Host are checked before a body is read; trailer fields never join the header section.
// Pure functions over the parser and the buffer, so that a fuzzer can drive them without sockets.

#include <cstddef>
#include <optional>
#include <string_view>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/system/error_code.hpp>

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/server/request_parser.hpp"

namespace petstore::adapters::http {

// The longest chunk-size line, extensions included, that a chunked body may carry.
inline constexpr std::size_t max_chunk_line_bytes = 4096;

// The most a connection reads at once (Beast's own read size).
inline constexpr std::size_t read_chunk_bytes = 65536;

// read_buffer_ceiling: the most a connection's read buffer ever holds: one head at its limit plus
// one read. Past that nothing is buffered; see feed_parser.
[[nodiscard]] constexpr std::size_t read_buffer_ceiling(std::size_t header_bytes) noexcept {
  return header_bytes + read_chunk_bytes;
}

// feed_parser: gives `parser` what `buffer` holds, consuming what it used. Returns success once
// the head (`whole_message` false) or the whole request is parsed; need_more when it waits for
// bytes not yet buffered; else Beast's error. What stays buffered while it waits is bounded:
// an unfinished chunk-size line past max_chunk_line_bytes is bad_chunk, an unfinished trailer
// section past `header_bytes` is header_limit (as a head past its limit is).
[[nodiscard]] boost::system::error_code feed_parser(RequestParser& parser,
                                                    boost::beast::flat_buffer& buffer,
                                                    bool whole_message, std::size_t header_bytes);

// skip_empty_lines: drops the empty lines (CRLF or LF) a client may send before a request line
// (RFC 9112 section 2.2).
void skip_empty_lines(boost::beast::flat_buffer& buffer);

// HeadVerdict: what the head alone decides, in one pass over its fields. A refusal is sent and the
// connection closed without reading the body; `close_after` serves the request, then closes
// (suspect framing); `keep_alive` is the client's wish (RFC 9112 section 9.3, as Beast's
// keep_alive()); `expects_continue`: an HTTP/1.1 Expect: 100-continue. Views into the head.
struct HeadVerdict {
  std::optional<HttpResponse> refusal;
  bool close_after = false;
  bool keep_alive = false;
  bool expects_continue = false;
  std::optional<std::string_view> request_id;
  TraceFields trace;
};

// check_head: RFC 9112's rules for Host (section 3.2: exactly one, valid; required in HTTP/1.1)
// and Transfer-Encoding (section 6.1: chunked last and once, no other coding; on HTTP/1.0 the
// framing is suspect, so the connection closes after the answer). An unknown coding is 501.
[[nodiscard]] HeadVerdict check_head(const RequestParser& head);

// response_to_read_error: the answer to a request that failed to be read with `error` (431, 413
// or 400), or nullopt when the client is gone or too slow and deserves no answer.
[[nodiscard]] std::optional<HttpResponse> response_to_read_error(
    const boost::system::error_code& error);

}  // namespace petstore::adapters::http
