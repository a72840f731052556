#pragma once
// TraceContext: the W3C Trace Context (https://www.w3.org/TR/trace-context/) a call runs under:
// the `traceparent` to pass on, "00-<32 hex trace id>-<16 hex span id>-<2 hex flags>", whose span
// is the service's own, and the `tracestate` that came with it. Made by the HTTP adapter; a
// storage adapter may pass it on, so that a slow statement leads back to its request. Empty when
// the call has no request.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace petstore::ports {

struct TraceContext {
  static constexpr std::size_t traceparent_size = 55;

  std::array<char, traceparent_size> traceparent{};  // all NUL: no trace
  std::string tracestate;  // as received beside a valid traceparent; empty when none

  [[nodiscard]] bool empty() const noexcept { return traceparent[0] == '\0'; }
  // parent: the traceparent's 55 characters; empty when there is no trace.
  [[nodiscard]] std::string_view parent() const noexcept {
    return empty() ? std::string_view() : std::string_view(traceparent.data(), traceparent.size());
  }
  // trace_id, span_id: the traceparent's 32 and 16 hex digits; empty when there is no trace.
  [[nodiscard]] std::string_view trace_id() const noexcept { return part(3, 32); }
  [[nodiscard]] std::string_view span_id() const noexcept { return part(36, 16); }

 private:
  [[nodiscard]] std::string_view part(std::size_t at, std::size_t size) const noexcept {
    return empty() ? std::string_view() : std::string_view(traceparent.data() + at, size);
  }
};

}  // namespace petstore::ports
