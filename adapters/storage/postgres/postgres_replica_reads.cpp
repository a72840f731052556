#include "adapters/storage/postgres/postgres_replica_reads.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "adapters/storage/postgres/postgres_replay_wait.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using Clock = ReplicaReads::Clock;

// The replica's position (and, until it is trusted, its history) in a statement of its own before
// the read: a read committed transaction (whatever the server's default) takes a snapshot per
// statement, so the read's snapshot comes after the position it is checked against.
constexpr const char* begin_sql = "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY";
constexpr const char* commit_sql = "COMMIT";
constexpr std::size_t statements_before_read = 2;  // BEGIN and the replay position
constexpr std::size_t replay_statement = 1;

// How long a position query may take: past it, its reads go to the primary.
constexpr std::chrono::milliseconds position_timeout{1000};

// first_lsn: the position in the first row of `result`, if it holds one (NULL does not).
std::optional<Lsn> first_lsn(const PGresult* result) {
  if (result == nullptr || PQntuples(result) < 1 || PQgetisnull(result, 0, 0) != 0) {
    return std::nullopt;
  }
  return parse_lsn(PQgetvalue(result, 0, 0));
}

// on_replica: `work`'s statements in a read-only transaction, after `before` when given, within
// half what the read has left (most_replica_wait at most).
Work on_replica(const Work& work, Clock::time_point now,
                std::optional<Statement> before = std::nullopt) {
  Work sent;
  sent.statements.reserve(work.statements.size() + statements_before_read + 1);
  sent.statements.push_back(Statement{begin_sql, {}});
  if (before) {
    sent.statements.push_back(std::move(*before));
  }
  sent.statements.insert(sent.statements.end(), work.statements.begin(), work.statements.end());
  sent.statements.push_back(Statement{commit_sql, {}});
  const auto left = std::max(work.deadline - now, Clock::duration::zero());
  sent.deadline = now + std::min<Clock::duration>(left / 2, ReplicaReads::most_replica_wait);
  return sent;
}

// serve: answers `work` with its own statements' results, which begin at `first` in `all`.
void serve(Work work, std::vector<ResultPtr>& all, std::size_t first, PostgresObserver& observer) {
  const auto begin = all.begin() + static_cast<std::ptrdiff_t>(first);
  std::vector<ResultPtr> own(
      std::make_move_iterator(begin),
      std::make_move_iterator(begin + static_cast<std::ptrdiff_t>(work.statements.size())));
  observer.read_served(true, "");
  work.finish(std::move(own));
}

}  // namespace

void ReplicaReads::read(Work work) {
  if (work.rows_bounding > 0) {
    std::optional<std::size_t> picked;
    std::uint64_t connections = 0;
    {
      const std::lock_guard lock(mutex_);
      picked = pick_locked(Clock::now(), true);  // without one, the read takes the position's way
      connections = picked ? replicas_[*picked].connections : 0;
    }
    if (picked) {
      alone_to_replica(std::move(work), *picked, connections);
      return;
    }
  }
  to_position(std::move(work));
}

void ReplicaReads::to_position(Work work) {
  const char* reason = "no_replica";
  bool usable = false;
  {
    const std::lock_guard lock(mutex_);
    usable = usable_locked(Clock::now(), reason);
  }
  if (usable) {
    gathering_.join(std::move(work));
  } else {
    to_primary(std::move(work), reason);
  }
}

const char* ReplicaReads::why_unusable(const Replica& replica, Clock::time_point now) {
  if (now < replica.down_until) {
    return "replica_down";
  }
  return now < replica.lagging_until ? "replica_lagging" : nullptr;
}

bool ReplicaReads::usable_locked(Clock::time_point now, const char*& reason) const {
  for (const auto& replica : replicas_) {
    const char* why = why_unusable(replica, now);
    if (why == nullptr) {
      return true;
    }
    reason = reason == std::string_view("replica_down") ? reason : why;  // down says more
  }
  return false;
}

std::optional<std::size_t> ReplicaReads::pick_locked(Clock::time_point now, bool trusted,
                                                     const char** reason) {
  if (trusted && (!primary_history_ || now - history_seen_at_ > history_life)) {
    return std::nullopt;
  }
  // Round robin over the usable ones: each pick moves the start on by one.
  for (std::size_t tried = 0; tried < replicas_.size(); ++tried) {
    const std::size_t index = next_++ % replicas_.size();
    const char* why = why_unusable(replicas_[index], now);
    if (why == nullptr && (!trusted || replicas_[index].trusted_for == primary_history_)) {
      return index;
    }
    if (why != nullptr && reason != nullptr) {
      *reason = *reason == std::string_view("replica_down") ? *reason : why;
    }
  }
  return std::nullopt;
}

void ReplicaReads::alone_to_replica(Work work, std::size_t index, std::uint64_t connections) {
  Work sent = on_replica(work, Clock::now());
  sent.finish = [this, index, connections, work = std::move(work)](WorkResults results) mutable {
    alone_answered(std::move(work), index, connections, std::move(results));
  };
  replicas_[index].pool->read(std::move(sent));
}

void ReplicaReads::alone_answered(Work work, std::size_t index, std::uint64_t connections,
                                  WorkResults results) {
  const auto now = Clock::now();
  bool same_server = false;
  {
    const std::lock_guard lock(mutex_);
    auto& replica = replicas_[index];
    same_server = replica.connections == connections;
    if (!results && now < work.deadline) {
      replica.down_until = now + down_pause;
    }
  }
  if (results && same_server && PQntuples((*results)[1].get()) >= work.rows_bounding) {
    serve(std::move(work), *results, 1, observer_);  // after BEGIN
    return;
  }
  to_position(std::move(work));  // not whole by itself: the replica must prove its replay
}

void ReplicaReads::query_position() {
  observer_.position_queried();
  primary_.read(Work{{Statement{position_sql, {}}},
                     [this](const WorkResults& results) { position_answered(results); },
                     Clock::now() + position_timeout});
}

void ReplicaReads::position_answered(const WorkResults& results) {
  auto decoded = results ? decode_position((*results)[0].get()) : std::nullopt;
  const auto required =
      decoded ? std::make_shared<const PrimaryPosition>(std::move(*decoded)) : nullptr;
  if (required) {
    const std::lock_guard lock(mutex_);
    primary_history_ = required->history;
    history_seen_at_ = Clock::now();
  }
  auto waiters = gathering_.answered();
  for (auto& work : waiters) {
    if (required) {
      to_replica(std::move(work), required);
    } else {
      to_primary(std::move(work), "position_unknown");
    }
  }
}

void ReplicaReads::to_replica(Work work, Required required, bool again) {
  const auto now = Clock::now();
  const char* reason = "no_replica";
  Attempt attempt{0, std::move(required), false, again, 0};
  std::optional<std::size_t> picked;
  {
    const std::lock_guard lock(mutex_);
    picked = pick_locked(now, false, &reason);
    if (picked) {
      const auto& replica = replicas_[*picked];
      attempt.index = *picked;
      attempt.proving = replica.trusted_for != attempt.required->history;
      attempt.connections = replica.connections;
    }
  }
  if (!picked) {
    to_primary(std::move(work), reason);
    return;
  }
  const auto left = std::max(work.deadline - now, Clock::duration::zero());
  const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::min<Clock::duration>(max_catch_up, left / 4));
  Work sent = on_replica(work, now,
                         attempt.proving ? Statement{proving_replay_sql, {}}
                                         : Statement{replay_wait_sql,
                                                     {format_lsn(attempt.required->flush),
                                                      std::to_string(wait.count())}});
  auto& pool = *replicas_[attempt.index].pool;
  sent.finish = [this, attempt = std::move(attempt),
                 work = std::move(work)](WorkResults results) mutable {
    replica_answered(std::move(work), attempt, std::move(results));
  };
  pool.read(std::move(sent));
}

void ReplicaReads::replica_answered(Work work, const Attempt& attempt, WorkResults results) {
  const PGresult* replay = results ? (*results)[replay_statement].get() : nullptr;
  const bool trusted = results && (!attempt.proving || proved(attempt, replay));
  const auto verdict = !trusted ? ReplicaVerdict::not_standby
                                : judge_replica(first_lsn(replay), attempt.required->flush);
  if (verdict == ReplicaVerdict::fresh) {
    serve(std::move(work), *results, statements_before_read, observer_);
    return;
  }
  const auto now = Clock::now();
  if (verdict == ReplicaVerdict::lagging && attempt.proving && !attempt.again &&
      now < work.deadline) {
    to_replica(std::move(work), attempt.required, true);  // proved: now it waits there
    return;
  }
  // A read that ran out of its own time says nothing about the replica: only the primary's
  // answer (unavailable by now) remains.
  if (now < work.deadline) {
    const std::lock_guard lock(mutex_);
    auto& replica = replicas_[attempt.index];
    (verdict == ReplicaVerdict::lagging ? replica.lagging_until : replica.down_until) =
        now + (verdict == ReplicaVerdict::lagging ? lagging_pause : down_pause);
  }
  to_primary(std::move(work),
             verdict == ReplicaVerdict::lagging ? "replica_lagging" : "replica_down");
}

void ReplicaReads::to_primary(Work work, const char* reason) {
  observer_.read_served(false, reason);
  primary_.read(std::move(work));
}

}  // namespace petstore::adapters::storage::postgres
