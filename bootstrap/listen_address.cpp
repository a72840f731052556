#include <arpa/inet.h>

#include "bootstrap/serve_options.hpp"
#include "domain/whole_number.hpp"

namespace petstore::bootstrap {

std::optional<ListenAddress> parse_listen_address(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return std::nullopt;
  }
  std::string host = text.substr(0, colon);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') {
      return std::nullopt;
    }
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string::npos) {
    return std::nullopt;  // an IPv6 host needs its brackets
  }
  const auto port = domain::parse_whole<std::uint16_t>(std::string_view(text).substr(colon + 1));
  if (!port) {
    return std::nullopt;
  }
  return ListenAddress{std::move(host), *port};
}

bool is_loopback_host(const std::string& host) {
  if (host == "localhost") {
    return true;
  }
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24U) == 127U;
  }
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

}  // namespace petstore::bootstrap
