#include "adapters/http/api/client_address_group.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "adapters/http/api/ip_address.hpp"

namespace petstore::adapters::http {
namespace {

void append_hex(std::string& out, std::uint16_t group) {
  constexpr std::string_view digits = "0123456789abcdef";
  bool started = false;
  for (int shift = 12; shift >= 0; shift -= 4) {
    const auto digit = static_cast<std::size_t>((group >> static_cast<unsigned>(shift)) & 0xFU);
    started = started || digit != 0 || shift == 0;
    if (started) {
      out += digits[digit];
    }
  }
}

}  // namespace

std::string client_address_group(std::string_view address) {
  if (address.find(':') == std::string_view::npos) {
    return std::string(address);
  }
  const auto parsed = parse_ip_address(address);
  if (!parsed) {
    return std::string(address);
  }
  const auto& g = parsed->groups;
  if (parsed->is_ipv4()) {
    return std::to_string(g[6] >> 8U) + "." + std::to_string(g[6] & 0xFFU) + "." +
           std::to_string(g[7] >> 8U) + "." + std::to_string(g[7] & 0xFFU);
  }
  // RFC 5952: the interface half is all zeros, the longest run, so it and any zero groups just
  // before it become "::".
  std::size_t kept = 4;
  while (kept > 0 && g.at(kept - 1) == 0) {
    --kept;
  }
  std::string group;
  for (std::size_t i = 0; i < kept; ++i) {
    if (i > 0) {
      group += ':';
    }
    append_hex(group, g.at(i));
  }
  return group + "::/64";
}

}  // namespace petstore::adapters::http
