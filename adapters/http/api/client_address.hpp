#pragma once
// The client address of contract section 9: who a request comes from, behind a reverse proxy too
// (docs/decisions/client-address-behind-a-proxy.md).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/url/ipv6_address.hpp>

#include "domain/error.hpp"

namespace petstore::adapters::http {

// IpAddress: 128 bits; IPv4 as ::ffff:a.b.c.d (RFC 4291 section 2.5.5.2), so that it and its
// mapped spelling (what a dual-stack socket reports) are one.
using IpAddress = boost::urls::ipv6_address;

// parse_ip_address: by RFC 3986 (dotted quads without leading zeros, as inet_pton) and RFC 4291
// section 2.2. A zone such as "%eth0" is ignored: a socket reports a link-local peer with one.
[[nodiscard]] std::optional<IpAddress> parse_ip_address(std::string_view text) noexcept;

// TrustedProxies: the address ranges (CIDR) whose X-Forwarded-For is believed.
class TrustedProxies {
 public:
  TrustedProxies() = default;  // none: X-Forwarded-For is never believed

  // parse: "10.0.0.0/8,2001:db8::/32,192.0.2.1" (a bare address is one host; empty: none), or
  // invalid_argument naming the first range that is not one.
  [[nodiscard]] static domain::Result<TrustedProxies> parse(std::string_view ranges);

  [[nodiscard]] bool empty() const noexcept { return ranges_.empty(); }
  [[nodiscard]] bool contains(const IpAddress& address) const noexcept;

 private:
  struct Range {
    IpAddress network;
    unsigned prefix_bits = 0;  // of the 128; an IPv4 /n is ::ffff:0:0/96+n
  };
  std::vector<Range> ranges_;
};

// client_address: `peer` unless it is a trusted proxy; then the rightmost address of
// `forwarded_for` (X-Forwarded-For values joined by commas) that is not itself trusted; when all
// are trusted or none is listed, the leftmost trusted hop. An entry that is no IP address (one
// with a zone, "fe80::1%eth0", is none across hosts) ends the walk: the trusted hop to its right
// is the client, since nothing to its left can be believed.
[[nodiscard]] std::string client_address(std::string_view peer, std::string_view forwarded_for,
                                         const TrustedProxies& proxies);

// client_address_group: how the failed-authentication throttle groups clients
// (docs/decisions/auth-failure-throttle.md; bootstrap hands it to the throttle, which reads no
// address itself). For an IPv6 address, its /64 prefix (a subscriber is usually given a whole /64)
// in RFC 5952 spelling ("2001:db8:1:2::/64" for "2001:db8:1:2:aaaa::1%eth0"); for
// "::ffff:192.0.2.7", "192.0.2.7"; anything else (an IPv4 address, "unknown") unchanged.
[[nodiscard]] std::string client_address_group(std::string_view address);

}  // namespace petstore::adapters::http
