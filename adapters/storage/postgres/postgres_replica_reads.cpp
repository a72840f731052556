#include "adapters/storage/postgres/postgres_replica_reads.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

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

}  // namespace

// PoolWatcher: a replica's pool reports its connections' changes, for the log and so that the
// replica proves its history again; its availability is no part of readiness.
class ReplicaReads::PoolWatcher final : public PostgresObserver {
 public:
  PoolWatcher(ReplicaReads& reads, std::size_t index, std::string description)
      : reads_(reads), index_(index), description_(std::move(description)) {}

  // PostgresObserver
  void connect_failed(std::string_view /*host*/, std::string_view reason) override {
    reads_.connections_changed(index_);
    reads_.observer_.replica_changed(description_, reason);
  }
  // PostgresObserver
  void connection_lost(std::string_view /*host*/, std::string_view reason) override {
    reads_.connections_changed(index_);
    reads_.observer_.replica_changed(description_, reason);
  }
  // PostgresObserver
  void connection_restored(std::string_view /*host*/) override {
    reads_.connections_changed(index_);
    reads_.observer_.replica_changed(description_, "");
  }
  // PostgresObserver: a new connection, made for the first time, is a change too.
  void pool_changed(std::size_t open, std::size_t /*in_use*/) override {
    if (open != open_) {
      open_ = open;
      reads_.connections_changed(index_);
    }
  }

 private:
  ReplicaReads& reads_;
  std::size_t index_;
  std::string description_;
  std::size_t open_ = 0;  // only ever read and written under the pool's lock
};

ReplicaReads::ReplicaReads(Pool& primary, std::vector<ReplicaTarget> replicas,
                           std::size_t pool_size, PostgresObserver& observer)
    : primary_(primary), observer_(observer) {
  // Every replica is in place before the first pool starts, since a pool reports at once.
  replicas_.resize(replicas.size());
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    replicas_[i].description = replicas[i].description;
    replicas_[i].watcher = std::make_unique<PoolWatcher>(*this, i, replicas[i].description);
  }
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    PoolSettings settings;
    settings.target = std::move(replicas[i].target);
    settings.size = std::max<std::size_t>(1, pool_size);
    settings.loops = std::min<std::size_t>(settings.size, 2);
    settings.observer = replicas_[i].watcher.get();
    settings.schema_ready = true;  // the primary's schema, replicated
    settings.ticked = i == 0 ? &gathering_ : nullptr;
    replicas_[i].pool = std::make_unique<Pool>(std::move(settings));
  }
}

ReplicaReads::~ReplicaReads() { close(); }

void ReplicaReads::close() {
  gathering_.close();
  for (auto& replica : replicas_) {
    replica.pool->close();  // the first one's loop, which ticks the gathering, is joined here
  }
}

void ReplicaReads::read(Work work) {
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

int ReplicaReads::pick_locked(Clock::time_point now, const char*& reason) {
  // Round robin over the usable ones: each pick moves the start on by one.
  for (std::size_t tried = 0; tried < replicas_.size(); ++tried) {
    const std::size_t index = next_++ % replicas_.size();
    const char* why = why_unusable(replicas_[index], now);
    if (why == nullptr) {
      return static_cast<int>(index);
    }
    reason = reason == std::string_view("replica_down") ? reason : why;
  }
  return -1;
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
  auto waiters = gathering_.answered();
  const auto catch_up_until = Clock::now() + max_catch_up;
  for (auto& work : waiters) {
    if (required) {
      to_replica(std::move(work), required, catch_up_until);
    } else {
      to_primary(std::move(work), "position_unknown");
    }
  }
}

void ReplicaReads::to_replica(Work work, Required required, Clock::time_point catch_up_until) {
  const auto now = Clock::now();
  const char* reason = "no_replica";
  Attempt attempt{0, std::move(required), catch_up_until, false, 0};
  {
    const std::lock_guard lock(mutex_);
    const int picked = pick_locked(now, reason);
    if (picked >= 0) {
      attempt.index = static_cast<std::size_t>(picked);
      const auto& replica = replicas_[attempt.index];
      attempt.proving = replica.trusted_for != attempt.required->history;
      attempt.connections = replica.connections;
    } else {
      attempt.index = replicas_.size();
    }
  }
  if (attempt.index == replicas_.size()) {
    to_primary(std::move(work), reason);
    return;
  }
  Work sent;
  sent.statements.reserve(work.statements.size() + statements_before_read + 1);
  sent.statements.push_back(Statement{begin_sql, {}});
  sent.statements.push_back(Statement{attempt.proving ? proving_replay_sql : replay_sql, {}});
  sent.statements.insert(sent.statements.end(), work.statements.begin(), work.statements.end());
  sent.statements.push_back(Statement{commit_sql, {}});
  const auto left = std::max(work.deadline - now, Clock::duration::zero());
  sent.deadline = now + std::min<Clock::duration>(left / 2, most_replica_wait);
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
    auto& all = *results;
    const auto first = all.begin() + statements_before_read;
    std::vector<ResultPtr> own(
        std::make_move_iterator(first),
        std::make_move_iterator(first + static_cast<std::ptrdiff_t>(work.statements.size())));
    observer_.read_served(true, "");
    work.finish(std::move(own));
    return;
  }
  const auto now = Clock::now();
  if (verdict == ReplicaVerdict::lagging && now < attempt.catch_up_until && now < work.deadline) {
    to_replica(std::move(work), attempt.required, attempt.catch_up_until);  // it replays meanwhile
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

bool ReplicaReads::proved(const Attempt& attempt, const PGresult* facts) {
  const auto decoded = decode_replica_facts(facts);
  const auto judgement =
      decoded ? judge_history(*decoded, attempt.required->history)
              : ReplicaJudgement{ReplicaRefusal::other_cluster,
                                 "its identity could not be read (the role may not read "
                                 "pg_control_system(), or the answer had another shape)"};
  bool report_refusal = false;
  bool report_trust = false;
  {
    const std::lock_guard lock(mutex_);
    auto& replica = replicas_[attempt.index];
    if (replica.connections != attempt.connections) {
      return !judgement.refusal;  // its connections changed meanwhile: this answer proves no more
    }
    if (judgement.refusal) {
      report_refusal = replica.refused != judgement.refusal;
      replica.refused = judgement.refusal;
      replica.trusted_for.reset();
    } else {
      report_trust = replica.refused.has_value() || !replica.trusted_for;
      replica.refused.reset();
      replica.trusted_for = attempt.required->history;
    }
  }
  const auto& description = replicas_[attempt.index].description;
  if (report_refusal) {
    observer_.replica_refused(description, *judgement.refusal, judgement.detail);
  }
  if (report_trust) {
    observer_.replica_trusted(description);
  }
  return !judgement.refusal;
}

void ReplicaReads::connections_changed(std::size_t index) {
  const std::lock_guard lock(mutex_);
  if (index < replicas_.size()) {
    ++replicas_[index].connections;
    replicas_[index].trusted_for.reset();
  }
}

void ReplicaReads::to_primary(Work work, const char* reason) {
  observer_.read_served(false, reason);
  primary_.read(std::move(work));
}

}  // namespace petstore::adapters::storage::postgres
