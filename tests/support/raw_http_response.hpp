#pragma once
// RawResponse: an HTTP/1.1 response as a test client read it off the wire, and the parser that
// takes one from the front of a byte buffer. Bodies are framed by Content-Length only (the server
// never sends chunked responses); 1xx, 204 and 304 responses have none.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::tests {

struct RawResponse {
  std::string version;  // "HTTP/1.1"
  unsigned status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // in order, values trimmed
  std::string body;

  // header: the value of the first field named `name` (any letter case), if any.
  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
  // count: how many fields are named `name`.
  [[nodiscard]] std::size_t count(std::string_view name) const;
};

// operator<<: the status line, fields and body, for a failing test's message.
std::ostream& operator<<(std::ostream& out, const RawResponse& response);

enum class ParseOutcome { complete, incomplete, malformed };

// parse_response: takes one whole response from the front of `buffer` into `out` and erases its
// bytes; leaves `buffer` alone when the response is incomplete or malformed.
[[nodiscard]] ParseOutcome parse_response(std::string& buffer, RawResponse& out);

}  // namespace petstore::tests
