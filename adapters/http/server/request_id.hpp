#pragma once
// Request ids (X-Request-Id): a client's id is kept when it is 1 to 128 visible ASCII characters
// (so that it is safe in a log line and a header); otherwise the server makes one. Every
// response echoes the id in use.

#include <optional>
#include <string>
#include <string_view>

namespace petstore::adapters::http {

inline constexpr std::size_t max_request_id_length = 128;

// is_valid_request_id: 1..128 characters, each visible ASCII (0x21..0x7E).
[[nodiscard]] bool is_valid_request_id(std::string_view id);

// assign_request_id: `sent` when valid, else a new id (32 lowercase hex digits, 16 random bytes),
// into `out`, which keeps its capacity (a
// connection reuses one string for all its ids, so an id costs no allocation).
void assign_request_id(std::string& out, std::optional<std::string_view> sent);

}  // namespace petstore::adapters::http
