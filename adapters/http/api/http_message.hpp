#pragma once
// HttpRequest and HttpResponse: the parts of an HTTP exchange the router reads and writes. Free of
// Beast, so that routing is a pure, unit-testable function and most files skip Beast's templates.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/http/api/ascii.hpp"
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
  // Every X-Forwarded-For value, joined by commas (owned: several fields have no single view).
  std::string forwarded_for;
  // The connection's last accepted key, to skip checking it again; null checks every time.
  application::AcceptedKeyMemo* accepted_key = nullptr;
  // Dispatch plus the storage timeout: every storage call carries it; past it the answer is 503.
  ports::Deadline storage_deadline = ports::no_deadline;
  // The request's trace context (trace_context.hpp); every storage call carries it. Null: none.
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
  // v1_fields: Cache-Control: no-store and X-Content-Type-Options: nosniff, which every /v1
  // response has, as one flag; header() answers for them too.
  bool v1_fields = false;
  // fault: a failed call's own words (message and detail) for a 500 or 503's log line; never sent.
  std::string fault;

  // set_header: adds the field (never one of the v1 fields); returns its value as stored, valid
  // until the response changes.
  std::string_view set_header(HeaderName name, std::string value) {
    if (headers.empty()) {
      headers.reserve(6);  // most responses carry at most this many fields of their own
    }
    return headers.emplace_back(name, std::move(value)).second;
  }
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const {
    if (v1_fields && equals_ignoring_case(name, "Cache-Control")) {
      return "no-store";
    }
    if (v1_fields && equals_ignoring_case(name, "X-Content-Type-Options")) {
      return "nosniff";
    }
    const auto found = std::find_if(headers.begin(), headers.end(), [name](const auto& field) {
      return equals_ignoring_case(field.first.text(), name);
    });
    return found == headers.end() ? std::nullopt : std::optional<std::string_view>(found->second);
  }
};

// unanswered: 500 with the /v1 headers (only /v1 waits), for a Respond dropped uncalled.
[[nodiscard]] HttpResponse unanswered();

// Respond: how a response is given, exactly once, from any thread: a Callback (ports/callback.hpp)
// holding the server's shared pointer inline. Dropped uncalled, it answers unanswered(), so no
// request hangs.
using Respond = ports::Callback<HttpResponse, 16, &unanswered>;

}  // namespace petstore::adapters::http
