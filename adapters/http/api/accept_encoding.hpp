#pragma once
// Reads Accept-Encoding (RFC 9110 section 12.5.3) for gzip, the one coding this server sends. A
// member whose weight is no qvalue (section 12.4.2) is ignored: an unreadable value must not turn
// compression on.

#include <optional>
#include <string_view>

namespace petstore::adapters::http {

// accepts_gzip: whether gzip ("gzip" or "x-gzip", else "*") has a weight above 0 and not below an
// explicit "identity"'s ("gzip;q=0.5, identity" prefers the body as it is). A coding named more
// than once counts at its highest weight ("gzip, gzip;q=0" takes gzip).
[[nodiscard]] bool accepts_gzip(std::string_view accept_encoding);

// parse_qvalue: a qvalue in thousandths ("0.5" is 500), or nullopt ("1.5", "0.0001", "abc").
[[nodiscard]] std::optional<unsigned> parse_qvalue(std::string_view text);

}  // namespace petstore::adapters::http
