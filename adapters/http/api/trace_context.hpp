#pragma once
// The W3C Trace Context of a request (https://www.w3.org/TR/trace-context/, Level 1, section 3):
// a valid `traceparent` is continued (its trace id and sampled flag kept, its `tracestate` with
// it); a missing, repeated or malformed one starts a new trace (a new random trace id, flags 00,
// no tracestate). Either way the request gets a new span id: the service's own span, the parent
// of what it calls (PostgreSQL). Transport-neutral: HTTP/1.1 and HTTP/2 alike call it with the
// fields they read.
//
// The ids a request is given when it brings none (X-Request-Id, a trace id, the service's span id)
// must be unique, not secret: SplitMix64 over a per-thread counter seeded once from the OS, a
// bijection of the counter, so a thread never repeats itself within 2^64 draws. A client's own
// X-Request-Id is kept when it is 1 to 128 visible ASCII characters (safe in a log line and a
// header); otherwise the server makes one. Every response echoes the id in use.

#include <optional>
#include <string>
#include <string_view>

#include "ports/trace_context.hpp"

namespace petstore::adapters::http {

// max_tracestate_size: the longest tracestate kept (32 list members of the spec's usual size);
// a longer one is dropped, as the spec allows a vendor that cannot keep it whole.
inline constexpr std::size_t max_tracestate_size = 512;

// TraceIds: what a valid traceparent names. Views into the field value.
struct TraceIds {
  std::string_view trace_id;   // 32 lowercase hex digits, not all zero
  std::string_view parent_id;  // 16 lowercase hex digits, not all zero
  bool sampled = false;        // flag 0x01
};

// parse_traceparent: the ids of a valid traceparent field value, else nullopt: version `ff`,
// upper-case or non-hex digits, an all-zero trace or parent id, a version-00 value of another
// length than 55, or a later version's value shorter than 55 or not followed by '-' (section
// 3.2.4: a later version is read as 00 where it fits).
[[nodiscard]] std::optional<TraceIds> parse_traceparent(std::string_view value) noexcept;

// TraceFields: a request's W3C Trace Context fields: the first traceparent, whether another came,
// and every tracestate joined by commas in order (each nullopt when absent).
struct TraceFields {
  std::optional<std::string_view> traceparent;
  bool traceparent_repeated = false;
  std::optional<std::string_view> tracestate;
};

[[nodiscard]] ports::TraceContext trace_request(const TraceFields& fields);

// assign_request_id: `sent` when valid, else a new id (32 lowercase hex digits) into `out`, which
// keeps its capacity (a connection reuses one string for all its ids).
void assign_request_id(std::string& out, std::optional<std::string_view> sent);

}  // namespace petstore::adapters::http
