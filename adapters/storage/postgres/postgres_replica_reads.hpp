#pragma once
// ReplicaReads: routes gets and lists to a replica that proved it replays the primary's history
// and is fresh enough (docs/decisions/replica-reads.md), else to the primary. Thread-safe, with no
// thread of its own: answers run on the adapter's loop threads.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/storage/postgres/postgres_freshness.hpp"
#include "adapters/storage/postgres/postgres_pool.hpp"
#include "adapters/storage/postgres/postgres_replica_proof.hpp"

namespace petstore::adapters::storage::postgres {

class ReplicaReads {
 public:
  using Clock = std::chrono::steady_clock;

  // The longest a read waits on a replica for its replay (at most a quarter of its time left):
  // under continuous creates nearly every read waits a little, for the replication lag.
  static constexpr std::chrono::milliseconds max_catch_up{50};
  // How long a replica that failed (or was refused), or could not catch up, is left alone.
  static constexpr std::chrono::milliseconds down_pause{1000};
  static constexpr std::chrono::milliseconds lagging_pause{100};
  // How long a position query's primary history vouches for a replica proved to replay it: reads
  // that need no position still ask the primary about once a second, so that a failover is noticed.
  static constexpr std::chrono::milliseconds history_life{1000};
  // The longest one attempt on a replica may take, and at most half what the read has left, so
  // that the primary still has time to answer after a replica that went silent.
  static constexpr std::chrono::milliseconds most_replica_wait{1000};
  // The GatherRule of position queries: enough reads, or the window after the previous query
  // (measured: docs/decisions/freshness-query-gathering.md).
  static constexpr std::size_t gather_enough = 16;
  static constexpr std::chrono::microseconds gather_window{1000};

  // `primary` and `observer` must outlive this; each replica gets a pool of `pool_size`.
  ReplicaReads(Pool& primary, std::vector<ConnectTarget> replicas, std::size_t pool_size,
               PostgresObserver& observer);
  ReplicaReads(const ReplicaReads&) = delete;
  ReplicaReads& operator=(const ReplicaReads&) = delete;
  // Sends the gathered reads' query at once and closes the replicas' pools (their calls fall
  // back to the primary, which the caller closes first so that they are answered unavailable).
  ~ReplicaReads();

  // read: answers `work` (its deadline set) from a fresh replica or from the primary.
  void read(Work work);

 private:
  class PoolWatcher;  // a replica's pool's observer: its connections' changes
  struct Replica {
    std::unique_ptr<PoolWatcher> watcher;
    std::unique_ptr<Pool> pool;
    std::string description;
    Clock::time_point down_until{};
    Clock::time_point lagging_until{};
    // The history the replica proved it replays, valid while `connections` has not moved since
    // (every change of its connections moves it: a server behind the address may have changed).
    std::optional<ServerHistory> trusted_for;
    std::uint64_t connections = 0;
    std::optional<ReplicaRefusal> refused;  // the refusal last reported, until trusted again
  };
  // Shared by the reads of a batch.
  using Required = std::shared_ptr<const PrimaryPosition>;
  // Attempt: what one read on a replica checks.
  struct Attempt {
    std::size_t index = 0;
    Required required;
    bool proving = false;  // the replica's history is checked too (and there is no wait)
    bool again = false;    // the read's second attempt, once a proof passed
    std::uint64_t connections = 0;
  };

  // why_unusable: null when `replica` may be tried at `now`, else why not.
  [[nodiscard]] static const char* why_unusable(const Replica& replica, Clock::time_point now);
  // usable_locked: whether some replica is usable now, else false with the reason none is.
  [[nodiscard]] bool usable_locked(Clock::time_point now, const char*& reason) const;
  // pick_locked: a replica usable now (round robin), and when `trusted` proved to replay the
  // primary's history as a position query told it within history_life; nullopt when none is,
  // with the reason none is usable in `*reason` when one is asked for.
  [[nodiscard]] std::optional<std::size_t> pick_locked(Clock::time_point now, bool trusted,
                                                       const char** reason = nullptr);
  // alone_to_replica: `work` on replica `index`, with no position; whole answers are served,
  // the others take the position's way.
  void alone_to_replica(Work work, std::size_t index, std::uint64_t connections);
  void alone_answered(Work work, std::size_t index, std::uint64_t connections, WorkResults results);
  // to_position: `work` joins the gathering for a position query, or goes to the primary when no
  // replica is usable.
  void to_position(Work work);
  void query_position();
  void position_answered(const WorkResults& results);
  void to_replica(Work work, Required required, bool again = false);
  void replica_answered(Work work, const Attempt& attempt, WorkResults results);
  // proved: whether the replica's answer proves the history the attempt requires (recording
  // either verdict); refusals are reported once.
  [[nodiscard]] bool proved(const Attempt& attempt, const PGresult* facts);
  void connections_changed(std::size_t index);
  void to_primary(Work work, const char* reason);

  Pool& primary_;
  PostgresObserver& observer_;
  std::mutex mutex_;
  std::vector<Replica> replicas_;
  std::size_t next_ = 0;
  std::optional<ServerHistory> primary_history_;  // the last a position query told
  Clock::time_point history_seen_at_{};
  // Ticked by the first replica's pool's loop, which the destructor stops before either goes.
  PositionGathering gathering_{GatherRule{gather_enough, gather_window},
                               [this] { query_position(); },
                               [this] { replicas_.front().pool->wake(); }};
};

}  // namespace petstore::adapters::storage::postgres
