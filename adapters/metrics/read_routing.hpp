#pragma once
// ReadRouting: where PostgreSQL storage's gets and lists were answered (a replica, or the primary
// and why not a replica), and how many flush-position queries the primary answered to keep reads
// from replicas fresh (their ratio to reads is the freshness cost). Lock-free counters, shown by
// Metrics once the database is tracked. The reasons are a fixed set: nothing else is counted.

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace petstore::adapters::metrics {

class ReadRouting {
 public:
  // The primary's reasons, as the adapter names them (PostgresEvents::read_served).
  static constexpr std::array<std::string_view, 4> reasons{"no_replica", "replica_down",
                                                           "replica_lagging", "position_unknown"};

  // served: one read answered by a replica (`replica`) or by the primary for `reason`; an
  // unknown reason counts as the last one.
  void served(bool replica, std::string_view reason);
  void position_queried() { positions_.fetch_add(1, std::memory_order_relaxed); }

  // append_exposition: petstore_storage_reads_total{served_by,reason} and
  // petstore_storage_freshness_queries_total.
  void append_exposition(std::string& out) const;

 private:
  std::atomic<std::uint64_t> replica_{0};
  std::array<std::atomic<std::uint64_t>, reasons.size()> primary_{};
  std::atomic<std::uint64_t> positions_{0};
};

}  // namespace petstore::adapters::metrics
