#include "adapters/http/api/ip_address.hpp"

#include <cstddef>

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>

namespace petstore::adapters::http {

std::optional<IpAddress> parse_ip_address(std::string_view text) noexcept {
  IpAddress address;
  if (text.find(':') == std::string_view::npos) {
    const auto ipv4 = boost::urls::parse_ipv4_address(text);
    if (!ipv4) {
      return std::nullopt;
    }
    const std::uint32_t bits = ipv4->to_uint();
    address.groups[5] = 0xFFFF;
    address.groups[6] = static_cast<std::uint16_t>(bits >> 16U);
    address.groups[7] = static_cast<std::uint16_t>(bits & 0xFFFFU);
    return address;
  }
  // A zone (scope) names an interface, not an address; Boost.URL reads RFC 3986, which has none.
  const auto ipv6 = boost::urls::parse_ipv6_address(text.substr(0, text.find('%')));
  if (!ipv6) {
    return std::nullopt;
  }
  const auto bytes = ipv6->to_bytes();
  for (std::size_t i = 0; i < address.groups.size(); ++i) {
    address.groups.at(i) =
        static_cast<std::uint16_t>(unsigned{bytes.at(2 * i)} << 8U | unsigned{bytes.at(2 * i + 1)});
  }
  return address;
}

}  // namespace petstore::adapters::http
