#pragma once
// IpAddress: an IPv4 or IPv6 address as its 128 bits, parsed from text by Boost.URL's RFC 3986
// rules: dotted quads without leading zeros (dec-octet, as inet_pton reads them), and IPv6 as
// RFC 4291 section 2.2 writes it (with "::" and an embedded dotted quad). A zone such as "%eth0"
// is ignored: a socket reports a link-local peer with its zone; client_address refuses a zone
// where a host names another. An IPv4 address is held as the IPv4-mapped IPv6 address
// ::ffff:a.b.c.d (RFC 4291 section 2.5.5.2), so that it and its mapped spelling (what a
// dual-stack socket reports) are one.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace petstore::adapters::http {

struct IpAddress {
  std::array<std::uint16_t, 8> groups{};

  // is_ipv4: an IPv4 address (held mapped); groups[6..7] carry its four octets.
  [[nodiscard]] bool is_ipv4() const noexcept {
    return groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0 &&
           groups[5] == 0xFFFF;
  }
  // bit: the `index`th bit from the left (0 to 127).
  [[nodiscard]] bool bit(unsigned index) const noexcept {
    return ((groups.at(index / 16) >> (15 - index % 16)) & 1U) != 0;
  }
};

[[nodiscard]] std::optional<IpAddress> parse_ip_address(std::string_view text) noexcept;

}  // namespace petstore::adapters::http
