#pragma once
// write_response: an HttpResponse in its HTTP/1.1 wire form (status line, fields, body) in one
// buffer that the session sends with a single write. Serialising here rather than through Beast's
// serializer keeps the write path to one copy into a buffer the connection reuses, with no
// per-response field container; requests are still parsed by Beast.

#include <cstddef>
#include <string>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

struct ResponseFraming {
  unsigned version = 11;   // the request's: 10 or 11
  bool keep_alive = true;  // false: the connection closes after this response
  bool head = false;       // a response to HEAD: the body's length, not its bytes
};

// write_response: replaces `out` (keeping its capacity) with `response` as sent: the status line;
// Date; Content-Type application/json for a body without one; the response's own fields in order;
// Connection as `framing` asks; Content-Length; then the body, unless `framing.head`.
void write_response(std::string& out, const HttpResponse& response, const ResponseFraming& framing);

// body_bytes_sent: for logs and metrics, the body bytes a response carries (none for HEAD).
[[nodiscard]] inline std::size_t body_bytes_sent(const HttpResponse& response,
                                                 const ResponseFraming& framing) {
  return framing.head ? 0 : response.body.size();
}

}  // namespace petstore::adapters::http
