#pragma once
// write_response: an HttpResponse in its HTTP/1.1 wire form (status line, fields, body) in one
// buffer that the session sends with a single write. Serialising here rather than through Beast's
// serializer keeps the write path to one copy into a buffer the connection reuses, with no
// per-response field container; requests are still parsed by Beast.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

struct ResponseFraming {
  unsigned version = 11;   // the request's: 10 or 11
  bool keep_alive = true;  // false: the connection closes after this response
  bool head = false;       // a response to HEAD: the body's length, not its bytes
  // The request's Accept-Encoding, read only when the response is large enough to gzip.
  std::optional<std::string_view> accept_encoding;
  // The X-Request-Id to send, after the response's own fields; none when empty.
  std::string_view request_id;
  // The traceresponse to send (W3C Trace Context Level 2: the request's trace id and the
  // service's span id), after X-Request-Id; none when empty.
  std::string_view traceresponse{};
};

// write_response: replaces `out` (keeping its capacity) with `response` as sent: the status line;
// Date; Content-Type application/json for a body without one; the response's own fields in order,
// then its v1 fields; X-Request-Id and traceresponse from `framing`; Connection as `framing` asks;
// Content-Length; then the body, unless `framing.head`. A compressible body (response_gzip.hpp)
// adds Vary: Accept-Encoding, and goes out gzipped, with Content-Encoding: gzip, when
// `framing.accept_encoding` takes gzip; a HEAD response gets the same fields. Returns the body
// bytes sent, for logs and metrics (none for HEAD).
std::size_t write_response(std::string& out, const HttpResponse& response,
                           const ResponseFraming& framing);

}  // namespace petstore::adapters::http
