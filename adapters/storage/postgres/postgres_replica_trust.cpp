// ReplicaReads' replicas: their pools, their connections' changes, and their proofs of history.
#include <utility>

#include "adapters/storage/postgres/postgres_replica_reads.hpp"

namespace petstore::adapters::storage::postgres {

// PoolWatcher: a replica's pool reports its connections' changes, for the log and so that the
// replica proves its history again; its availability is no part of readiness.
class ReplicaReads::PoolWatcher final : public PostgresObserver {
 public:
  PoolWatcher(ReplicaReads& reads, std::size_t index) : reads_(reads), index_(index) {}

  // PostgresObserver
  void connect_failed(std::string_view /*host*/, std::string_view reason) override {
    changed(reason);
  }
  void connection_lost(std::string_view /*host*/, std::string_view reason) override {
    changed(reason);
  }
  void connection_restored(std::string_view /*host*/) override { changed(""); }
  // A connection made for the first time is a change too.
  void pool_changed(std::size_t open, std::size_t /*in_use*/) override {
    if (open != open_) {
      open_ = open;
      reads_.connections_changed(index_);
    }
  }

 private:
  void changed(std::string_view reason) {
    reads_.connections_changed(index_);
    reads_.observer_.replica_changed(reads_.replicas_[index_].description, reason);
  }

  ReplicaReads& reads_;
  std::size_t index_;
  std::size_t open_ = 0;  // only ever read and written under the pool's lock
};

ReplicaReads::ReplicaReads(Pool& primary, std::vector<ConnectTarget> replicas,
                           std::size_t pool_size, PostgresObserver& observer)
    : primary_(primary), observer_(observer) {
  // Every replica is in place before the first pool starts, since a pool reports at once.
  replicas_.resize(replicas.size());
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    replicas_[i].description = replicas[i].description;
    replicas_[i].watcher = std::make_unique<PoolWatcher>(*this, i);
  }
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    PoolSettings settings;
    settings.target = std::move(replicas[i]);
    settings.size = std::max<std::size_t>(1, pool_size);
    settings.observer = replicas_[i].watcher.get();
    settings.schema_ready = true;  // the primary's schema, replicated
    settings.ticked = i == 0 ? &gathering_ : nullptr;
    replicas_[i].pool = std::make_unique<Pool>(std::move(settings));
  }
}

ReplicaReads::~ReplicaReads() {
  gathering_.close();
  for (auto& replica : replicas_) {
    replica.pool->close();  // the first one's loop, which ticks the gathering, is joined here
  }
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

}  // namespace petstore::adapters::storage::postgres
