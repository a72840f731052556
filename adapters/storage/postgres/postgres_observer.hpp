#pragma once
// PostgresObserver: what the PostgreSQL adapter reports (logs, metrics, readiness); each method is
// a no-op by default. Called concurrently on the adapter's threads: implementations must be
// thread-safe and quick. No text carries a URL's password.

#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace petstore::adapters::storage::postgres {

// ReplicaRefusal: why a replica was not trusted to serve reads (lagging is no refusal).
enum class ReplicaRefusal {
  not_a_replica,   // the host is a primary (not in recovery): it may become a replica later
  other_cluster,   // another system_identifier than the primary's
  other_database,  // the same cluster, another database than the primary's
  other_timeline,  // not on the primary's timeline (left on a dead one, or not yet following)
};

[[nodiscard]] constexpr std::string_view to_string(ReplicaRefusal refusal) {
  constexpr std::array<std::string_view, 4> names{"not_a_replica", "other_cluster",
                                                  "other_database", "other_timeline"};
  return names.at(static_cast<std::size_t>(refusal));
}

class PostgresObserver {
 public:
  PostgresObserver() = default;
  PostgresObserver(const PostgresObserver&) = delete;
  PostgresObserver& operator=(const PostgresObserver&) = delete;
  virtual ~PostgresObserver() = default;

  // The primary's connections: an attempt on one host failed (`host` is its description), an
  // open connection broke, or one is up again after failing. None is told while storage closes.
  virtual void connect_failed(std::string_view /*host*/, std::string_view /*reason*/) {}
  virtual void connection_lost(std::string_view /*host*/, std::string_view /*reason*/) {}
  virtual void connection_restored(std::string_view /*host*/) {}
  // availability_changed: some primary connection works and the schema is ready, or not.
  virtual void availability_changed(bool /*available*/) {}
  virtual void pool_changed(std::size_t /*open*/, std::size_t /*in_use*/) {}
  virtual void connection_waited(std::chrono::nanoseconds /*waited*/) {}  // a call's wait
  virtual void query_finished(std::chrono::nanoseconds /*took*/) {}       // a read's round trip
  virtual void commit_finished(std::chrono::nanoseconds /*took*/, std::size_t /*creates*/) {}
  // commit_resolved: a batch whose COMMIT's answer was lost, resolved on a connection of its own:
  // `outcome` is "committed" (its creates answered with their pets), "not_committed" (sent again,
  // or unavailable past their deadline) or "unknown" (unavailable); `detail` says how.
  virtual void commit_resolved(std::string_view /*outcome*/, std::size_t /*creates*/,
                               std::string_view /*detail*/) {}
  // schema_refused: the database's schema cannot be used by this binary (newer, damaged): calls
  // fail until it is repaired. Once per distinct reason.
  virtual void schema_refused(std::string_view /*reason*/) {}

  // read_served: a get or list answered by a replica (`replica`, reason empty) or by the primary,
  // with why it did not go to a replica: "no_replica", "replica_down", "replica_lagging",
  // "position_unknown".
  virtual void read_served(bool /*replica*/, std::string_view /*reason*/) {}
  virtual void position_queried() {}  // a flush-position query sent to the primary
  // replica_changed: a replica's connection failed or broke (`reason`), or is back (reason empty).
  virtual void replica_changed(std::string_view /*replica*/, std::string_view /*reason*/) {}
  // replica_refused: a replica's check found it does not replay the primary's history, or is no
  // replica; once per refusal and reason until it is trusted again (`detail` says what differs).
  virtual void replica_refused(std::string_view /*replica*/, ReplicaRefusal /*refusal*/,
                               std::string_view /*detail*/) {}
  // replica_trusted: a replica proved, first or again, that it replays the primary's history.
  virtual void replica_trusted(std::string_view /*replica*/) {}
};

}  // namespace petstore::adapters::storage::postgres
