#include "adapters/http/api/cors_policy.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::adapters::http {
namespace {

// listed_origin: the request's Origin when `policy` lists it. A browser never sends two (RFC 6454
// section 7.3), so neither of two is believed.
std::optional<std::string_view> listed_origin(const CorsPolicy& policy,
                                              const HttpRequest& request) {
  if (!request.origin || request.origin_repeated || !policy.allows(*request.origin)) {
    return std::nullopt;
  }
  return request.origin;
}

domain::Error not_an_origin(std::string_view text, std::string_view why) {
  return domain::invalid_argument(
      "cors-origins",
      "'" + std::string(text) + "' is not an origin (scheme://host[:port]): " + std::string(why));
}

// valid_name: a lower-case DNS name (Boost.URL takes any reg-name; a browser's Origin holds no
// other). A last label of digits would be an IPv4 address, which Boost.URL tells apart when whole.
bool valid_name(std::string_view host) {
  if (host.empty() || host.size() > 253) {
    return false;
  }
  std::string_view last;
  for (std::size_t at = 0; at <= host.size();) {
    const std::size_t end = std::min(host.find('.', at), host.size());
    const std::string_view label = host.substr(at, end - at);
    const bool letters = std::all_of(label.begin(), label.end(), [](char c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-';
    });
    if (label.empty() || label.size() > 63 || !letters || label.front() == '-' ||
        label.back() == '-') {
      return false;
    }
    last = label;
    at = end + 1;
  }
  return !std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

domain::Result<std::string> serialise_origin(std::string_view text) {
  if (text == "*") {
    return not_an_origin(text, "name each origin; '*' is not taken");
  }
  if (text.find("://") == std::string_view::npos) {
    return not_an_origin(text, "it has no scheme");
  }
  const auto url = boost::urls::parse_uri(text);
  if (!url) {
    return not_an_origin(text, "the URL is malformed");
  }
  if (url->scheme_id() != boost::urls::scheme::http &&
      url->scheme_id() != boost::urls::scheme::https) {
    return not_an_origin(text, "the scheme must be http or https");
  }
  if (!url->encoded_path().empty() || url->has_query() || url->has_fragment()) {
    return not_an_origin(text, "an origin has no path, query or fragment (not even a final /)");
  }
  if (url->has_userinfo()) {
    return not_an_origin(text, "an origin has no user info");
  }
  // The host as a browser writes it: in lower case, an IPv6 address canonical and bracketed.
  std::string host;
  if (url->host_type() == boost::urls::host_type::ipv4) {
    host = url->host_ipv4_address().to_string();
  } else if (url->host_type() == boost::urls::host_type::ipv6) {
    host = "[" + url->host_ipv6_address().to_string() + "]";
  } else if (url->host_type() == boost::urls::host_type::name) {
    host = url->encoded_host();
    std::transform(host.begin(), host.end(), host.begin(), ascii_lower);
  }
  if (host.empty() || (url->host_type() == boost::urls::host_type::name && !valid_name(host))) {
    return not_an_origin(text, "the host is missing or malformed");
  }
  const bool https = url->scheme_id() == boost::urls::scheme::https;
  std::string origin = std::string(https ? "https" : "http") + "://" + host;
  if (url->has_port()) {
    const std::uint16_t number = url->port_number();  // 0 when empty or past 65535
    if (number == 0) {
      return not_an_origin(text, "the port must be a number from 1 to 65535");
    }
    // A browser leaves the scheme's default port out of Origin.
    if (number != (https ? 443U : 80U)) {
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

std::optional<HttpResponse> answer_preflight(const CorsPolicy& policy, const HttpRequest& request,
                                             const Route& route) {
  if (request.method != "OPTIONS" || !request.access_control_request_method ||
      !listed_origin(policy, request)) {
    return std::nullopt;
  }
  HttpResponse response;
  response.status = 204;
  response.set_header("Access-Control-Allow-Methods", route.allow());
  response.set_header("Access-Control-Allow-Headers", std::string(CorsPolicy::allowed_headers));
  response.set_header("Access-Control-Max-Age", std::to_string(CorsPolicy::max_age_seconds));
  return response;
}

void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request,
                      HttpResponse& response) {
  if (!policy.enabled()) {
    return;
  }
  response.set_header("Vary", "Origin");
  if (const auto origin = listed_origin(policy, request)) {
    response.set_header("Access-Control-Allow-Origin", std::string(*origin));
    response.set_header("Access-Control-Expose-Headers", std::string(CorsPolicy::exposed_headers));
  }
}

}  // namespace petstore::adapters::http
