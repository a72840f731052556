#pragma once
// client_address_group: the name under which the failed-authentication throttle counts a client.
// One IPv6 subscriber is usually given a whole /64 and could take a fresh address for every try,
// so an IPv6 address counts by its /64 prefix; an IPv4-mapped IPv6 address (what a dual-stack
// socket reports for an IPv4 peer) counts as the IPv4 address it carries. Pure text in, text out
// (parsed by parse_ip_address). Bootstrap hands it to the throttle, which reads no address itself.

#include <string>
#include <string_view>

namespace petstore::adapters::http {

// client_address_group: for an IPv6 address, its /64 prefix in RFC 5952 group spelling
// ("2001:db8:1:2::/64" for "2001:db8:1:2:aaaa::1"; a zone such as "%eth0" is ignored); for
// "::ffff:192.0.2.7", "192.0.2.7"; anything else (an IPv4 address, "unknown") unchanged.
[[nodiscard]] std::string client_address_group(std::string_view address);

}  // namespace petstore::adapters::http
