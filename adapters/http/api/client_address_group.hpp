#pragma once
// How the failed-authentication throttle groups clients (docs/decisions/auth-failure-throttle.md).
// Bootstrap hands it to the throttle, which reads no address itself.

#include <string>
#include <string_view>

namespace petstore::adapters::http {

// client_address_group: for an IPv6 address, its /64 prefix (a subscriber is usually given a whole
// /64) in RFC 5952 spelling ("2001:db8:1:2::/64" for "2001:db8:1:2:aaaa::1%eth0"); for
// "::ffff:192.0.2.7", "192.0.2.7"; anything else (an IPv4 address, "unknown") unchanged.
[[nodiscard]] std::string client_address_group(std::string_view address);

}  // namespace petstore::adapters::http
