#include "adapters/storage/postgres/postgres_freshness.hpp"

#include <array>
#include <cstdio>

#include "adapters/storage/postgres/libpq.hpp"

namespace petstore::adapters::storage::postgres {

std::optional<Lsn> parse_lsn(std::string_view text) {
  // Each half is 1 to 8 hex digits.
  const auto slash = text.find('/');
  if (slash > 8 || text.size() - slash - 1 > 8) {  // npos included
    return std::nullopt;
  }
  const auto high = parse_whole<std::uint32_t>(text.substr(0, slash), 16);
  const auto low = parse_whole<std::uint32_t>(text.substr(slash + 1), 16);
  if (!high || !low) {
    return std::nullopt;
  }
  return (Lsn{*high} << 32U) | *low;
}

std::string format_lsn(Lsn lsn) {
  std::array<char, sizeof("FFFFFFFF/FFFFFFFF")> text{};
  (void)std::snprintf(text.data(), text.size(), "%X/%X", static_cast<std::uint32_t>(lsn >> 32U),
                      static_cast<std::uint32_t>(lsn));
  return text.data();
}

ReplicaVerdict judge_replica(std::optional<Lsn> replayed, Lsn required) {
  if (!replayed) {
    return ReplicaVerdict::not_standby;
  }
  return *replayed >= required ? ReplicaVerdict::fresh : ReplicaVerdict::lagging;
}

}  // namespace petstore::adapters::storage::postgres
