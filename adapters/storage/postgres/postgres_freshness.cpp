#include "adapters/storage/postgres/postgres_freshness.hpp"

#include <array>
#include <cctype>
#include <charconv>

#include "adapters/storage/postgres/libpq.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// hex32: one half of a pg_lsn, 1 to 8 hex digits.
std::optional<std::uint32_t> hex32(std::string_view text) {
  if (text.size() > 8) {
    return std::nullopt;
  }
  return parse_whole<std::uint32_t>(text, 16);
}

}  // namespace

std::optional<Lsn> parse_lsn(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    return std::nullopt;
  }
  const auto high = hex32(text.substr(0, slash));
  const auto low = hex32(text.substr(slash + 1));
  if (!high || !low) {
    return std::nullopt;
  }
  return (Lsn{*high} << 32U) | *low;
}

std::string format_lsn(Lsn lsn) {
  constexpr int half = 32;
  constexpr int base = 16;
  std::array<char, 8> high{};  // a 32-bit half in hex
  std::array<char, 8> low{};
  const auto high_end = std::to_chars(high.data(), high.data() + high.size(),
                                      static_cast<std::uint32_t>(lsn >> half), base)
                            .ptr;
  const auto low_end =
      std::to_chars(low.data(), low.data() + low.size(), static_cast<std::uint32_t>(lsn), base).ptr;
  std::string text(high.data(), high_end);
  text += '/';
  text.append(low.data(), low_end);
  for (auto& digit : text) {
    digit = static_cast<char>(std::toupper(static_cast<unsigned char>(digit)));
  }
  return text;
}

ReplicaVerdict judge_replica(std::optional<Lsn> replayed, Lsn required) {
  if (!replayed) {
    return ReplicaVerdict::not_standby;
  }
  return *replayed >= required ? ReplicaVerdict::fresh : ReplicaVerdict::lagging;
}

}  // namespace petstore::adapters::storage::postgres
