#pragma once
// Reads Accept-Encoding (RFC 9110 section 12.5.3) for the one content coding this server sends:
// whether a client takes gzip. Each member is a coding with an optional weight, a qvalue
// (section 12.4.2: "0" to "1" with at most three decimals); a member whose weight is no qvalue
// is ignored, as a value that cannot be read must not turn compression on.

#include <optional>
#include <string_view>

namespace petstore::adapters::http {

// accepts_gzip: whether an Accept-Encoding value takes gzip: named ("gzip" or "x-gzip") with a
// weight above 0, or, when unnamed, "*" with one; and not below an explicit "identity"'s weight
// ("gzip;q=0.5, identity" prefers the body as it is). "gzip;q=0" refuses it. Repeated
// Accept-Encoding fields come joined into one list (request_parser.hpp), and a coding named more
// than once counts at its highest weight, wherever it stands ("gzip, gzip;q=0" takes gzip).
[[nodiscard]] bool accepts_gzip(std::string_view accept_encoding);

// parse_qvalue: a qvalue in thousandths ("0.5" is 500, "1" is 1000), or nullopt when `text` is
// none ("1.5", "0.0001", "abc").
[[nodiscard]] std::optional<unsigned> parse_qvalue(std::string_view text);

}  // namespace petstore::adapters::http
