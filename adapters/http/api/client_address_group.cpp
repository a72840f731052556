#include "adapters/http/api/client_address_group.hpp"

#include <algorithm>

#include <boost/url/ipv4_address.hpp>

#include "adapters/http/api/client_address.hpp"

namespace petstore::adapters::http {

std::string client_address_group(std::string_view address) {
  if (address.find(':') == std::string_view::npos) {
    return std::string(address);
  }
  const auto parsed = parse_ip_address(address);
  if (!parsed) {
    return std::string(address);
  }
  auto bytes = parsed->to_bytes();
  if (parsed->is_v4_mapped()) {
    return boost::urls::ipv4_address({bytes[12], bytes[13], bytes[14], bytes[15]}).to_string();
  }
  // The interface half, zeroed, is the longest run of zero groups, so RFC 5952's spelling (which
  // Boost.URL writes) ends in "::".
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return IpAddress(bytes).to_string() + "/64";
}

}  // namespace petstore::adapters::http
