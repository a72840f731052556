#pragma once
// Request framing: the RFC 9112 rules Beast's parser leaves to its user
// (docs/decisions/framing-beyond-beast.md): a ceiling on the read buffer, bounded chunk-size lines
// and trailers, Transfer-Encoding and Host checked before a body is read. Pure functions, so that
// a fuzzer can drive them without sockets.

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

// read_buffer_ceiling: one head at its limit plus one read; past that nothing is buffered.
[[nodiscard]] constexpr std::size_t read_buffer_ceiling(std::size_t header_bytes) noexcept {
  return header_bytes + read_chunk_bytes;
}

// feed_parser: gives `parser` what `buffer` holds, consuming what it used. Success once the head
// (`whole_message` false) or the whole request is parsed; need_more; else Beast's error. An
// unfinished chunk-size line past max_chunk_line_bytes is bad_chunk, an unfinished trailer section
// past `header_bytes` header_limit, so that what waits is bounded.
[[nodiscard]] boost::system::error_code feed_parser(RequestParser& parser,
                                                    boost::beast::flat_buffer& buffer,
                                                    bool whole_message, std::size_t header_bytes);

// skip_empty_lines: drops the empty lines (CRLF or LF) a client may send before a request line
// (RFC 9112 section 2.2).
void skip_empty_lines(boost::beast::flat_buffer& buffer);

// HeadVerdict: what the head alone decides, in one pass. A refusal is sent and the connection
// closed without reading the body; `close_after` closes after serving (suspect framing);
// `keep_alive` is the client's wish (RFC 9112 section 9.3). Views into the head.
struct HeadVerdict {
  std::optional<HttpResponse> refusal;
  bool close_after = false;
  bool keep_alive = false;
  bool expects_continue = false;
  std::optional<std::string_view> request_id;
  TraceFields trace;
};

// check_head: RFC 9112's rules for Host (section 3.2) and Transfer-Encoding (section 6.1: chunked
// last and once, no other coding: 501; on HTTP/1.0 the connection closes after the answer).
[[nodiscard]] HeadVerdict check_head(const RequestParser& head);

// response_to_read_error: the answer to a request that failed to be read with `error` (431, 413
// or 400), or nullopt when the client is gone or too slow and deserves no answer.
[[nodiscard]] std::optional<HttpResponse> response_to_read_error(
    const boost::system::error_code& error);

}  // namespace petstore::adapters::http
