#include "adapters/storage/postgres/postgres_replica_reads.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

// The primary's position, and the replica's in a statement of its own before the read: a read
// committed transaction (whatever the server's default) takes a snapshot per statement, so the
// read's snapshot comes after the position it is checked against.
constexpr const char* flush_position_sql = "SELECT pg_current_wal_flush_lsn()";
constexpr const char* begin_sql = "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY";
constexpr const char* replay_position_sql = "SELECT pg_last_wal_replay_lsn()";
constexpr const char* commit_sql = "COMMIT";
constexpr std::size_t statements_before_read = 2;  // BEGIN and the replay position

// How long a position query may take: past it, its reads go to the primary.
constexpr std::chrono::milliseconds position_timeout{1000};

template <class Event, class... Args>
void report(const Event& event, Args&&... args) {
  if (event) {
    event(std::forward<Args>(args)...);
  }
}

// first_lsn: the position in the first row of `result`, if it holds one (NULL does not).
std::optional<Lsn> first_lsn(const PGresult* result) {
  if (result == nullptr || PQntuples(result) < 1 || PQgetisnull(result, 0, 0) != 0) {
    return std::nullopt;
  }
  return parse_lsn(PQgetvalue(result, 0, 0));
}

// replica_events: a replica's pool reports only its connections' changes, for the log; its
// availability is no part of readiness.
PostgresEvents replica_events(const PostgresEvents& events, const std::string& description) {
  PostgresEvents own;
  if (events.replica_changed) {
    const auto changed = events.replica_changed;
    own.connect_failed = [changed, description](std::string_view reason) {
      changed(description, reason);
    };
    own.connection_lost = own.connect_failed;
    own.connection_restored = [changed, description] { changed(description, ""); };
  }
  return own;
}

}  // namespace

ReplicaReads::ReplicaReads(Pool& primary, std::vector<ReplicaTarget> replicas,
                           std::size_t pool_size, const PostgresEvents& events)
    : primary_(primary), events_(events) {
  for (auto& replica : replicas) {
    PoolSettings settings;
    settings.target = std::move(replica.target);
    settings.size = std::max<std::size_t>(1, pool_size);
    settings.loops = std::min<std::size_t>(settings.size, 2);
    settings.events = replica_events(events, replica.description);
    settings.schema_ready = true;  // the primary's schema, replicated
    replicas_.push_back(
        Replica{std::make_unique<Pool>(std::move(settings)), std::move(replica.description)});
  }
}

ReplicaReads::~ReplicaReads() { close(); }

void ReplicaReads::close() {
  gathering_.close();
  for (auto& replica : replicas_) {
    replica.pool->close();
  }
}

void ReplicaReads::read(Work work) {
  const char* reason = "no_replica";
  bool usable = false;
  {
    const std::lock_guard lock(mutex_);
    usable = pick_locked(Clock::now(), reason) >= 0;
  }
  if (usable) {
    gathering_.join(std::move(work));
  } else {
    to_primary(std::move(work), reason);
  }
}

int ReplicaReads::pick_locked(Clock::time_point now, const char*& reason) {
  for (std::size_t tried = 0; tried < replicas_.size(); ++tried) {
    const std::size_t index = next_++ % replicas_.size();
    const auto& replica = replicas_[index];
    if (now < replica.down_until) {
      reason = "replica_down";
    } else if (now < replica.lagging_until) {
      reason = reason == std::string_view("replica_down") ? reason : "replica_lagging";
    } else {
      return static_cast<int>(index);
    }
  }
  return -1;
}

void ReplicaReads::query_position() {
  report(events_.position_queried);
  primary_.read(Work{{Statement{flush_position_sql, {}}},
                     [this](const WorkResults& results) { position_answered(results); },
                     Clock::now() + position_timeout});
}

void ReplicaReads::position_answered(const WorkResults& results) {
  const auto required = results ? first_lsn((*results)[0].get()) : std::nullopt;
  auto waiters = gathering_.answered();
  const auto catch_up_until = Clock::now() + max_catch_up;
  for (auto& work : waiters) {
    if (required) {
      to_replica(std::move(work), *required, catch_up_until);
    } else {
      to_primary(std::move(work), "position_unknown");
    }
  }
}

void ReplicaReads::to_replica(Work work, Lsn required, Clock::time_point catch_up_until) {
  const auto now = Clock::now();
  const char* reason = "no_replica";
  int picked = -1;
  {
    const std::lock_guard lock(mutex_);
    picked = pick_locked(now, reason);
  }
  if (picked < 0) {
    to_primary(std::move(work), reason);
    return;
  }
  const auto index = static_cast<std::size_t>(picked);
  Work attempt;
  attempt.statements.reserve(work.statements.size() + statements_before_read + 1);
  attempt.statements.push_back(Statement{begin_sql, {}});
  attempt.statements.push_back(Statement{replay_position_sql, {}});
  attempt.statements.insert(attempt.statements.end(), work.statements.begin(),
                            work.statements.end());
  attempt.statements.push_back(Statement{commit_sql, {}});
  const auto left = std::max(work.deadline - now, Clock::duration::zero());
  attempt.deadline = now + std::min<Clock::duration>(left / 2, most_replica_wait);
  attempt.finish = [this, index, required, catch_up_until,
                    work = std::move(work)](WorkResults results) mutable {
    replica_answered(index, std::move(work), required, catch_up_until, std::move(results));
  };
  replicas_[index].pool->read(std::move(attempt));
}

void ReplicaReads::replica_answered(std::size_t index, Work work, Lsn required,
                                    Clock::time_point catch_up_until, WorkResults results) {
  const auto verdict = results ? judge_replica(first_lsn((*results)[1].get()), required)
                               : ReplicaVerdict::not_standby;
  if (verdict == ReplicaVerdict::fresh) {
    auto& all = *results;
    const auto first = all.begin() + statements_before_read;
    std::vector<ResultPtr> own(
        std::make_move_iterator(first),
        std::make_move_iterator(first + static_cast<std::ptrdiff_t>(work.statements.size())));
    report(events_.read_served, true, "");
    work.finish(std::move(own));
    return;
  }
  const auto now = Clock::now();
  if (verdict == ReplicaVerdict::lagging && now < catch_up_until && now < work.deadline) {
    to_replica(std::move(work), required, catch_up_until);  // it replays as we ask again
    return;
  }
  // A read that ran out of its own time says nothing about the replica: only the primary's
  // answer (unavailable by now) remains.
  if (now < work.deadline) {
    const std::lock_guard lock(mutex_);
    auto& replica = replicas_[index];
    (verdict == ReplicaVerdict::lagging ? replica.lagging_until : replica.down_until) =
        now + (verdict == ReplicaVerdict::lagging ? lagging_pause : down_pause);
  }
  to_primary(std::move(work),
             verdict == ReplicaVerdict::lagging ? "replica_lagging" : "replica_down");
}

void ReplicaReads::to_primary(Work work, const char* reason) {
  report(events_.read_served, false, reason);
  primary_.read(std::move(work));
}

}  // namespace petstore::adapters::storage::postgres
