#include "application/ip_address.hpp"

#include <cstddef>

#include "domain/unicode.hpp"

namespace petstore::application {
namespace {

constexpr std::size_t ipv6_groups = 8;

// GroupList: the 16-bit groups read so far from one side of a "::".
struct GroupList {
  std::array<std::uint16_t, ipv6_groups> groups{};
  std::size_t count = 0;

  bool push(std::uint16_t group) noexcept {
    if (count == ipv6_groups) {
      return false;
    }
    groups.at(count++) = group;
    return true;
  }
};

std::optional<std::uint16_t> parse_hex_group(std::string_view text) noexcept {
  if (text.empty() || text.size() > 4) {
    return std::nullopt;
  }
  unsigned value = 0;
  for (const char c : text) {
    const int digit = domain::unicode::hex_digit(c);
    if (digit < 0) {
      return std::nullopt;
    }
    value = value * 16 + static_cast<unsigned>(digit);
  }
  return static_cast<std::uint16_t>(value);
}

// append_ipv4: a dotted quad ("192.0.2.7") as two groups; refuses any other spelling.
bool append_ipv4(std::string_view text, GroupList& out) noexcept {
  std::array<unsigned, 4> octets{};
  for (std::size_t i = 0; i < octets.size(); ++i) {
    const std::size_t dot = text.find('.');
    const bool last = i + 1 == octets.size();
    if (last != (dot == std::string_view::npos)) {
      return false;
    }
    const std::string_view part = text.substr(0, dot);
    // RFC 3986's dec-octet, as inet_pton reads it: no leading zero, so that one address has one
    // spelling ("005.005.005.005" would count apart from "5.5.5.5", and inet_aton reads "010" as
    // 8).
    if (part.empty() || part.size() > 3 || (part.size() > 1 && part.front() == '0')) {
      return false;
    }
    for (const char c : part) {
      if (c < '0' || c > '9') {
        return false;
      }
      octets.at(i) = octets.at(i) * 10 + static_cast<unsigned>(c - '0');
    }
    if (octets.at(i) > 255) {
      return false;
    }
    text.remove_prefix(last ? text.size() : dot + 1);
  }
  return out.push(static_cast<std::uint16_t>(octets[0] << 8U | octets[1])) &&
         out.push(static_cast<std::uint16_t>(octets[2] << 8U | octets[3]));
}

// append_groups: the colon-separated groups of `text` (none when empty); a dotted quad may end
// the address, so only the last side may hold one.
bool append_groups(std::string_view text, bool ends_address, GroupList& out) noexcept {
  while (!text.empty()) {
    const std::size_t colon = text.find(':');
    const std::string_view part = text.substr(0, colon);
    if (colon == std::string_view::npos && ends_address &&
        part.find('.') != std::string_view::npos) {
      return append_ipv4(part, out);
    }
    const auto group = parse_hex_group(part);
    if (!group || !out.push(*group)) {
      return false;
    }
    if (colon == std::string_view::npos) {
      return true;
    }
    text.remove_prefix(colon + 1);
    if (text.empty()) {
      return false;  // a trailing single colon
    }
  }
  return true;
}

std::optional<std::array<std::uint16_t, ipv6_groups>> parse_ipv6(std::string_view text) noexcept {
  text = text.substr(0, text.find('%'));  // a zone (scope) names an interface, not an address
  const std::size_t gap = text.find("::");
  if (gap == std::string_view::npos) {
    GroupList all;
    if (!append_groups(text, true, all) || all.count != ipv6_groups) {
      return std::nullopt;
    }
    return all.groups;
  }
  const std::string_view tail = text.substr(gap + 2);
  if (tail.find("::") != std::string_view::npos) {
    return std::nullopt;
  }
  GroupList front;
  GroupList back;
  if (!append_groups(text.substr(0, gap), false, front) || !append_groups(tail, true, back) ||
      front.count + back.count >= ipv6_groups) {
    return std::nullopt;
  }
  std::array<std::uint16_t, ipv6_groups> groups{};
  for (std::size_t i = 0; i < front.count; ++i) {
    groups.at(i) = front.groups.at(i);
  }
  for (std::size_t i = 0; i < back.count; ++i) {
    groups.at(ipv6_groups - back.count + i) = back.groups.at(i);
  }
  return groups;
}

}  // namespace

std::optional<IpAddress> parse_ip_address(std::string_view text) noexcept {
  if (text.find(':') == std::string_view::npos) {
    GroupList quad;
    if (!append_ipv4(text, quad)) {
      return std::nullopt;
    }
    IpAddress address;
    address.groups[5] = 0xFFFF;
    address.groups[6] = quad.groups[0];
    address.groups[7] = quad.groups[1];
    return address;
  }
  const auto groups = parse_ipv6(text);
  if (!groups) {
    return std::nullopt;
  }
  return IpAddress{*groups};
}

}  // namespace petstore::application
