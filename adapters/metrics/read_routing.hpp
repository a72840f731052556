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
  // The primary's reasons, as the adapter names them (PostgresObserver::read_served).
  static constexpr std::array<std::string_view, 4> reasons{"no_replica", "replica_down",
                                                           "replica_lagging", "position_unknown"};
  // Why a replica was refused, as the adapter names them (ReplicaRefusal).
  static constexpr std::array<std::string_view, 4> refusals{"not_a_replica", "other_cluster",
                                                            "other_database", "other_timeline"};

  // served: one read answered by a replica (`replica`) or by the primary for `reason`; an
  // unknown reason counts as the last one.
  void served(bool replica, std::string_view reason);
  void position_queried() { positions_.fetch_add(1, std::memory_order_relaxed); }
  // replica_refused: a replica's check found it does not replay the primary's history; an
  // unknown refusal counts as the last one.
  void replica_refused(std::string_view refusal);

  // append_exposition: petstore_storage_reads_total{served_by,reason},
  // petstore_storage_freshness_queries_total and petstore_storage_replica_refusals_total{reason}.
  void append_exposition(std::string& out) const;

 private:
  std::atomic<std::uint64_t> replica_{0};
  std::array<std::atomic<std::uint64_t>, reasons.size()> primary_{};
  std::atomic<std::uint64_t> positions_{0};
  std::array<std::atomic<std::uint64_t>, refusals.size()> refused_{};
};

}  // namespace petstore::adapters::metrics
