#pragma once
// HttpRequest and HttpResponse: the parts of an HTTP exchange the router reads and writes.
// They are plain structs, free of Beast, so that routing is a pure, unit-testable function and
// most files need not compile Beast's templates. The session converts to and from the wire.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ports/callback.hpp"
#include "ports/completion.hpp"

namespace petstore::application {
class AcceptedKeyMemo;
}  // namespace petstore::application

namespace petstore::adapters::http {

// HttpRequest: views into a request the session keeps alive until it has been answered.
struct HttpRequest {
  std::string_view method;  // as sent, e.g. "GET"
  std::string_view target;  // request-target, e.g. "/v1/pets?limit=5"
  std::optional<std::string_view> authorization;
  bool authorization_repeated = false;  // more than one Authorization field was sent
  std::optional<std::string_view> content_type;
  bool content_type_repeated = false;
  std::optional<std::string_view> content_encoding;
  std::optional<std::string_view> if_none_match;  // for the static assets of /docs
  // Every Accept-Encoding field, joined by commas in order (RFC 9110 section 5.3).
  std::optional<std::string_view> accept_encoding;
  std::optional<std::string_view> idempotency_key;
  bool idempotency_key_repeated = false;
  // CORS (cors_policy.hpp): the page's origin, and the method a preflight asks about.
  std::optional<std::string_view> origin;
  bool origin_repeated = false;  // more than one Origin field: no origin (cors_policy.hpp)
  std::optional<std::string_view> access_control_request_method;
  std::string_view body;
  std::string_view client_address;  // the peer's IP address, e.g. "127.0.0.1"
  // Every X-Forwarded-For field value, joined by commas in the order received (owned: several
  // fields have no single view). Believed only from a trusted proxy (client_address.hpp).
  std::string forwarded_for;
  // The connection's last accepted key, to skip checking it again; null checks every time.
  application::AcceptedKeyMemo* accepted_key = nullptr;
  // When storage must have answered (the server's storage timeout from dispatch): the deadline
  // every storage call for this request carries, and when the server answers 503 instead.
  ports::Deadline storage_deadline = ports::no_deadline;
  // The request's W3C trace context (trace_context.hpp), made by the transport from its
  // traceparent and tracestate; every storage call for the request carries it. Null: none.
  const ports::TraceContext* trace = nullptr;
};

// HeaderName: a field name spelled in the source. Only a string literal converts to one, so a
// response can hold its names by view, without copying them for every response.
class HeaderName {
 public:
  template <std::size_t Size>
  // NOLINTNEXTLINE(google-explicit-constructor,hicpp-explicit-conversions): a literal reads best
  consteval HeaderName(const char (&literal)[Size]) : text_(literal, Size - 1) {}

  [[nodiscard]] constexpr std::string_view text() const noexcept { return text_; }

 private:
  std::string_view text_;
};

// HttpResponse: status, header fields beyond the ones every response gets, and the body.
struct HttpResponse {
  unsigned status = 200;
  std::vector<std::pair<HeaderName, std::string>> headers;
  std::string body;  // JSON when not empty, unless a Content-Type header says otherwise
  // The two fields of every /v1 response, private to its key holder and never to be sniffed
  // (Cache-Control: no-store, X-Content-Type-Options: nosniff), as one flag; header() answers
  // for them as for the others.
  bool v1_fields = false;
  // fault: for a 500 or 503 from a failed call (storage full, away, damaged), the failure's own
  // words (its message and the adapter's detail) for the request's log line; never sent.
  std::string fault;

  // Most responses carry at most this many fields of their own (a page: Cache-Control,
  // X-Content-Type-Options, Link, X-Request-Id).
  static constexpr std::size_t typical_header_count = 6;

  // set_header: adds the field (never one of the v1 fields); returns its value as stored, valid
  // until the response changes.
  std::string_view set_header(HeaderName name, std::string value) {
    if (headers.empty()) {
      headers.reserve(typical_header_count);
    }
    return headers.emplace_back(name, std::move(value)).second;
  }
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
};

// unanswered: the response to a request whose Respond was dropped uncalled (an answer lost in
// storage or in the router): 500, with the headers of every /v1 response (only /v1 waits).
[[nodiscard]] HttpResponse unanswered();

// Respond: how a response is given, exactly once, from any thread, whether the router answers at
// once or storage later: a Callback (ports/callback.hpp) whose target (the server's: a shared
// pointer) lives inside it. Dropped uncalled, it answers unanswered(), so no request hangs.
using Respond = ports::Callback<HttpResponse, 16, &unanswered>;

}  // namespace petstore::adapters::http
