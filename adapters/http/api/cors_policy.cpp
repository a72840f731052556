#include "adapters/http/api/cors_policy.hpp"

#include <algorithm>
#include <charconv>

#include <boost/url/grammar/parse.hpp>
#include <boost/url/rfc/ipv4_address_rule.hpp>
#include <boost/url/rfc/ipv6_address_rule.hpp>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

domain::Error not_an_origin(std::string_view text, std::string_view why) {
  return domain::invalid_argument(
      "cors-origins",
      "'" + std::string(text) + "' is not an origin (scheme://host[:port]): " + std::string(why));
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A DNS name or dotted IPv4 address, in lower case: labels of letters, digits and inner hyphens.
// A last label of digits makes it an IPv4 address, which must then be a whole one, as a browser's
// URL parser reads it.
bool valid_name(std::string_view host) {
  if (host.empty() || host.size() > 253) {
    return false;
  }
  std::string_view last;
  for (std::size_t at = 0; at <= host.size();) {
    const std::size_t end = std::min(host.find('.', at), host.size());
    const std::string_view label = host.substr(at, end - at);
    const bool letters = std::all_of(label.begin(), label.end(), [](char c) {
      return is_digit(c) || (c >= 'a' && c <= 'z') || c == '-';
    });
    if (label.empty() || label.size() > 63 || !letters || label.front() == '-' ||
        label.back() == '-') {
      return false;
    }
    last = label;
    at = end + 1;
  }
  if (std::all_of(last.begin(), last.end(), is_digit)) {
    return boost::urls::grammar::parse(host, boost::urls::ipv4_address_rule).has_value();
  }
  return true;
}

// serialise_host: the host as a browser writes it (an IPv6 address in its canonical form,
// bracketed), or empty when it is none.
std::string serialise_host(std::string_view host) {
  if (host.starts_with('[') && host.ends_with(']')) {
    auto address = boost::urls::grammar::parse(host.substr(1, host.size() - 2),
                                               boost::urls::ipv6_address_rule);
    return address ? "[" + address->to_string() + "]" : std::string();
  }
  return valid_name(host) ? std::string(host) : std::string();
}

}  // namespace

domain::Result<std::string> serialise_origin(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), ascii_lower);
  const std::size_t separator = lower.find("://");
  if (lower == "*") {
    return not_an_origin(text, "name each origin; '*' is not taken");
  }
  if (separator == std::string::npos) {
    return not_an_origin(text, "it has no scheme");
  }
  const std::string_view scheme = std::string_view(lower).substr(0, separator);
  if (scheme != "http" && scheme != "https") {
    return not_an_origin(text, "the scheme must be http or https");
  }
  std::string_view authority = std::string_view(lower).substr(separator + 3);
  if (authority.find_first_of("/?#") != std::string_view::npos) {
    return not_an_origin(text, "an origin has no path, query or fragment (not even a final /)");
  }
  if (authority.find('@') != std::string_view::npos) {
    return not_an_origin(text, "an origin has no user info");
  }
  const std::size_t bracket = authority.rfind(']');
  const std::size_t colon = authority.rfind(':');
  std::string_view port;
  const bool has_port =
      colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket);
  if (has_port) {
    port = authority.substr(colon + 1);
    authority = authority.substr(0, colon);
  }
  const std::string host = serialise_host(authority);
  if (host.empty()) {
    return not_an_origin(text, "the host is missing or malformed");
  }
  std::string origin = std::string(scheme) + "://" + host;
  if (has_port) {
    unsigned number = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (port.empty() || error != std::errc() || end != port.data() + port.size() || number == 0 ||
        number > 65535) {
      return not_an_origin(text, "the port must be a number from 1 to 65535");
    }
    // A browser leaves the scheme's default port out of Origin.
    if (number != (scheme == "http" ? 80U : 443U)) {
      origin.append(":").append(std::to_string(number));
    }
  }
  return origin;
}

domain::Result<CorsPolicy> CorsPolicy::parse(std::string_view origins) {
  CorsPolicy policy;
  for (std::size_t at = 0; at <= origins.size();) {
    const std::size_t end = std::min(origins.find(',', at), origins.size());
    const std::string_view entry = trim_ows(origins.substr(at, end - at));
    at = end + 1;
    if (entry.empty() && trim_ows(origins).empty()) {
      break;  // none
    }
    auto origin = serialise_origin(entry);
    if (!origin) {
      return origin.error();
    }
    policy.origins_.push_back(std::move(*origin));
  }
  return policy;
}

bool CorsPolicy::allows(std::string_view origin) const noexcept {
  return std::find(origins_.begin(), origins_.end(), origin) != origins_.end();
}

}  // namespace petstore::adapters::http
