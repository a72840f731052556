#include "adapters/http/api/client_address.hpp"

#include <charconv>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

// without_port: an X-Forwarded-For entry as some proxies write it, "[2001:db8::1]:443" or
// "192.0.2.7:443", reduced to the address.
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

}  // namespace

domain::Result<TrustedProxies> TrustedProxies::parse(std::string_view ranges) {
  TrustedProxies proxies;
  while (!trim_ows(ranges).empty()) {
    const auto comma = ranges.find(',');
    const std::string_view text = trim_ows(ranges.substr(0, comma));
    ranges.remove_prefix(comma == std::string_view::npos ? ranges.size() : comma + 1);
    const auto slash = text.find('/');
    const auto address = parse_ip_address(text.substr(0, slash));
    const unsigned width = address && address->is_ipv4() ? 32 : 128;
    unsigned bits = width;
    if (slash != std::string_view::npos) {
      const std::string_view digits = text.substr(slash + 1);
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
      if (error != std::errc{} || end != digits.data() + digits.size() || digits.empty()) {
        bits = width + 1;  // refused below
      }
    }
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
  for (const Range& range : ranges_) {
    unsigned bit = 0;
    while (bit < range.prefix_bits && address.bit(bit) == range.network.bit(bit)) {
      ++bit;
    }
    if (bit == range.prefix_bits) {
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
    // A zone ("fe80::1%eth0", RFC 4007 section 11) names an interface of the host that wrote it,
    // so to any other host an entry with one is no address, whatever the rest says.
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

}  // namespace petstore::adapters::http
