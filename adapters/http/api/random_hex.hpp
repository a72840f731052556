#pragma once
// Random lowercase hex for the ids a request is given when it brings none (X-Request-Id, a trace
// id, the service's span id). The ids must be unique, not secret: SplitMix64 over a per-thread
// counter seeded once from the OS, a bijection of the counter, so a thread never repeats itself
// within 2^64 draws, at a few nanoseconds a draw.

#include <cstddef>

namespace petstore::adapters::http {

// write_random_hex: 2 * `bytes` lowercase hex digits (`bytes` random bytes) at `out`.
void write_random_hex(char* out, std::size_t bytes);

}  // namespace petstore::adapters::http
