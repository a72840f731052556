#pragma once
// The W3C Trace Context of a request (https://www.w3.org/TR/trace-context/, Level 1, section 3;
// docs/decisions/trace-context.md): a valid `traceparent` is continued (trace id, sampled flag and
// `tracestate` kept); otherwise a new trace starts. Either way the request gets a new span id, the
// service's own. Transport-neutral: HTTP/1.1 and HTTP/2 alike call it.
//
// Ids made here must be unique, not secret: SplitMix64 over a per-thread counter seeded once from
// the OS, a bijection, so a thread never repeats itself within 2^64 draws.

#include <optional>
#include <string>
#include <string_view>

#include "ports/trace_context.hpp"

namespace petstore::adapters::http {

// max_tracestate_size: 32 members of the spec's usual size; a longer one is dropped, as allowed.
inline constexpr std::size_t max_tracestate_size = 512;

// TraceIds: what a valid traceparent names. Views into the field value.
struct TraceIds {
  std::string_view trace_id;   // 32 lowercase hex digits, not all zero
  std::string_view parent_id;  // 16 lowercase hex digits, not all zero
  bool sampled = false;        // flag 0x01
};

// parse_traceparent: the ids of a valid traceparent, else nullopt (version `ff`, digits not
// lowercase hex, an all-zero id, a wrong length). A later version is read as 00 where it fits
// (section 3.2.4).
[[nodiscard]] std::optional<TraceIds> parse_traceparent(std::string_view value) noexcept;

// TraceFields: the first traceparent, whether another came, and every tracestate joined by commas.
struct TraceFields {
  std::optional<std::string_view> traceparent;
  bool traceparent_repeated = false;
  std::optional<std::string_view> tracestate;
};

[[nodiscard]] ports::TraceContext trace_request(const TraceFields& fields);

// assign_request_id: `sent` when valid (1 to 128 visible ASCII characters, safe in a log line and
// a header), else a new id of 32 hex digits, into `out`, which a connection reuses for all its ids.
void assign_request_id(std::string& out, std::optional<std::string_view> sent);

}  // namespace petstore::adapters::http
