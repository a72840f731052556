#include "adapters/http/api/client_address.hpp"

#include <algorithm>

#include <boost/url/ipv4_address.hpp>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

// without_port: an entry as some proxies write it ("[2001:db8::1]:443") reduced to the address.
std::string_view without_port(std::string_view entry) {
  if (entry.starts_with('[')) {
    const auto close = entry.find(']');
    return close == std::string_view::npos ? entry : entry.substr(1, close - 1);
  }
  const auto colon = entry.find(':');
  if (colon != std::string_view::npos && entry.find(':', colon + 1) == std::string_view::npos) {
    return entry.substr(0, colon);  // one colon: IPv4 with a port (IPv6 has at least two)
  }
  return entry;
}

// bit: the `index`th bit of `address` from the left (0 to 127).
bool bit(const IpAddress::bytes_type& address, unsigned index) noexcept {
  return ((address.at(index / 8) >> (7 - index % 8)) & 1U) != 0;
}

}  // namespace

std::optional<IpAddress> parse_ip_address(std::string_view text) noexcept {
  if (text.find(':') == std::string_view::npos) {
    const auto ipv4 = boost::urls::parse_ipv4_address(text);
    return ipv4 ? std::optional(IpAddress(*ipv4)) : std::nullopt;
  }
  // Boost.URL reads RFC 3986, which has no zones.
  const auto ipv6 = boost::urls::parse_ipv6_address(text.substr(0, text.find('%')));
  return ipv6 ? std::optional(*ipv6) : std::nullopt;
}

domain::Result<TrustedProxies> TrustedProxies::parse(std::string_view ranges) {
  TrustedProxies proxies;
  while (!trim_ows(ranges).empty()) {
    const auto comma = ranges.find(',');
    const std::string_view text = trim_ows(ranges.substr(0, comma));
    ranges.remove_prefix(comma == std::string_view::npos ? ranges.size() : comma + 1);
    const auto slash = text.find('/');
    const auto address = parse_ip_address(text.substr(0, slash));
    const unsigned width = address && address->is_v4_mapped() ? 32 : 128;
    // A prefix that is no number is refused below, as one too long.
    const unsigned bits = slash == std::string_view::npos
                              ? width
                              : parse_whole<unsigned>(text.substr(slash + 1)).value_or(width + 1);
    if (!address || bits > width || text.find('%') != std::string_view::npos) {
      return domain::invalid_argument(
          "trusted-proxies", "'" + std::string(text) +
                                 "' is not an address range such as 10.0.0.0/8 or 2001:db8::/32");
    }
    proxies.ranges_.push_back(Range{*address, 128 - width + bits});
  }
  return proxies;
}

bool TrustedProxies::contains(const IpAddress& address) const noexcept {
  const auto bits = address.to_bytes();
  for (const Range& range : ranges_) {
    const auto network = range.network.to_bytes();
    unsigned same = 0;
    while (same < range.prefix_bits && bit(bits, same) == bit(network, same)) {
      ++same;
    }
    if (same == range.prefix_bits) {
      return true;
    }
  }
  return false;
}

std::string client_address(std::string_view peer, std::string_view forwarded_for,
                           const TrustedProxies& proxies) {
  if (proxies.empty()) {
    return std::string(peer);
  }
  const auto peer_address = parse_ip_address(peer);
  if (!peer_address || !proxies.contains(*peer_address)) {
    return std::string(peer);
  }
  std::string_view client = peer;
  while (!forwarded_for.empty()) {
    const auto comma = forwarded_for.rfind(',');
    const std::string_view entry = without_port(trim_ows(
        comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1)));
    forwarded_for = forwarded_for.substr(0, comma == std::string_view::npos ? 0 : comma);
    if (entry.empty()) {
      continue;  // "a, , b": an empty list element (RFC 9110 section 5.6.1)
    }
    // A zone (RFC 4007 section 11) names an interface of the host that wrote it.
    const auto address =
        entry.find('%') == std::string_view::npos ? parse_ip_address(entry) : std::nullopt;
    if (!address) {
      break;
    }
    client = entry;
    if (!proxies.contains(*address)) {
      break;
    }
  }
  return std::string(client);
}

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
