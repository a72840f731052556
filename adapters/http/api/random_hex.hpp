#pragma once
// Random lowercase hex for the ids a request is given when it brings none (X-Request-Id, a trace
// id, the service's span id). The ids must be unique, not secret: SplitMix64 over a per-thread
// counter seeded once from the OS, a bijection of the counter, so a thread never repeats itself
// within 2^64 draws, at a few nanoseconds a draw. A client's own X-Request-Id is kept when it is
// 1 to 128 visible ASCII characters (so that it is safe in a log line and a header); otherwise
// the server makes one. Every response echoes the id in use.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::adapters::http {

// write_random_hex: 2 * `bytes` lowercase hex digits (`bytes` random bytes) at `out`.
void write_random_hex(char* out, std::size_t bytes);

// assign_request_id: `sent` when valid, else a new id (32 lowercase hex digits, 16 random bytes),
// into `out`, which keeps its capacity (a connection reuses one string for all its ids, so an id
// costs no allocation).
void assign_request_id(std::string& out, std::optional<std::string_view> sent);

}  // namespace petstore::adapters::http
