#include "bootstrap/postgres_storage.hpp"

#include <chrono>
#include <mutex>
#include <string>
#include <utility>

#include "bootstrap/repeated_failures.hpp"

namespace petstore::bootstrap {
namespace {

namespace postgres = adapters::storage::postgres;

// LoggedPostgres: the adapter's observations as log lines, metrics and readiness.
class LoggedPostgres final : public postgres::PostgresObserver {
 public:
  LoggedPostgres(std::string database, adapters::logging::Logger& logger,
                 adapters::metrics::Metrics& metrics, std::atomic<bool>& ready)
      : database_(std::move(database)), logger_(logger), metrics_(metrics), ready_(ready) {}

  // Each pooled connection reports its own failures and its own recovery: one line for the
  // host, with the repeats counted (RepeatedFailures); its recovery line reports those never
  // written. Decided and written under one lock, so
  // that a recovery's line never comes before the failure line it follows.
  void connect_failed(std::string_view host, std::string_view reason) override {
    log_failure(connect_failures_, "database_connect_failed", host, reason);
  }
  void connection_lost(std::string_view host, std::string_view reason) override {
    metrics_.database_connection_lost();
    log_failure(losses_, "database_connection_lost", host, reason);
  }
  void connection_restored(std::string_view host) override {
    metrics_.database_reconnected();
    const std::lock_guard lock(lines_);
    // Both, whichever was failing: a host back is back from either.
    const auto lost = losses_.succeeded(host);
    const auto refused = connect_failures_.succeeded(host);
    if (lost || refused) {
      logger_.info("database_connection_restored",
                   {{"database", database_},
                    {"host", host},
                    {"repeats", lost.value_or(0) + refused.value_or(0)}});
    }
  }
  void availability_changed(bool available) override { ready_.store(available); }
  void pool_changed(std::size_t open, std::size_t in_use) override {
    metrics_.set_database_connections(open, in_use);
  }
  void connection_waited(std::chrono::nanoseconds waited) override {
    metrics_.database_connection_waited(waited);
  }
  void query_finished(std::chrono::nanoseconds took) override {
    metrics_.database_query_finished(took);
  }
  void commit_finished(std::chrono::nanoseconds took, std::size_t /*creates*/) override {
    metrics_.storage_committed(took);
  }
  void commit_resolved(std::string_view outcome, std::size_t creates,
                       std::string_view detail) override {
    metrics_.storage_commit_resolved(outcome);
    logger_.info("storage_commit_resolved", {{"database", database_},
                                             {"outcome", outcome},
                                             {"creates", std::to_string(creates)},
                                             {"message", detail}});
  }
  void schema_refused(std::string_view reason) override {
    logger_.error("database_schema_refused", {{"database", database_}, {"message", reason}});
  }
  void read_served(bool replica, std::string_view reason) override {
    metrics_.read_served(replica, reason);
  }
  void position_queried() override { metrics_.position_queried(); }
  void replica_changed(std::string_view replica, std::string_view reason) override {
    const std::lock_guard lock(lines_);
    if (reason.empty()) {
      if (const auto repeats = replica_failures_.succeeded(replica)) {
        logger_.info("database_replica_restored", {{"replica", replica}, {"repeats", *repeats}});
      }
    } else if (const auto repeats = replica_failures_.failed(replica, reason, Clock::now())) {
      logger_.error("database_replica_failed",
                    {{"replica", replica}, {"message", reason}, {"repeats", *repeats}});
    }
  }
  void replica_refused(std::string_view replica, postgres::ReplicaRefusal refusal,
                       std::string_view detail) override {
    const auto reason = postgres::to_string(refusal);
    metrics_.replica_refused(reason);
    // A primary listed among the replicas (every node of a cluster, say) is no fault, and one
    // not yet on the primary's timeline may only need to follow it; another cluster or database
    // is a wrong URL.
    const auto level = refusal == postgres::ReplicaRefusal::not_a_replica    ? LogLevel::info
                       : refusal == postgres::ReplicaRefusal::other_timeline ? LogLevel::warn
                                                                             : LogLevel::error;
    logger_.log(level, "database_replica_refused",
                {{"replica", replica}, {"reason", reason}, {"message", detail}});
  }
  void replica_trusted(std::string_view replica) override {
    logger_.info(
        "database_replica_trusted",
        {{"replica", replica},
         {"message", "it replays the primary's history: it serves reads it is fresh for"}});
  }

 private:
  using LogLevel = adapters::logging::LogLevel;
  using Clock = RepeatedFailures::Clock;

  // A failure of the same reason is written again at the latest after this, with its repeats.
  static constexpr auto repeat_after = std::chrono::minutes(1);

  void log_failure(RepeatedFailures& failures, std::string_view event, std::string_view host,
                   std::string_view reason) {
    const std::lock_guard lock(lines_);
    if (const auto repeats = failures.failed(host, reason, Clock::now())) {
      logger_.error(
          event,
          {{"database", database_}, {"host", host}, {"message", reason}, {"repeats", *repeats}});
    }
  }

  const std::string database_;  // its description: never the password
  adapters::logging::Logger& logger_;
  adapters::metrics::Metrics& metrics_;
  std::atomic<bool>& ready_;
  // Apart per event and for replicas, since a replica's description may be a primary host's
  // (every node of a cluster in both URLs).
  std::mutex lines_;
  RepeatedFailures connect_failures_{repeat_after};
  RepeatedFailures losses_{repeat_after};
  RepeatedFailures replica_failures_{repeat_after};
};

}  // namespace

domain::Result<std::unique_ptr<ports::PetRepository>> open_postgres_storage(
    postgres::PostgresOptions options, adapters::logging::Logger& logger,
    adapters::metrics::Metrics& metrics, std::atomic<bool>& ready, const std::stop_token& stop) {
  auto described = postgres::describe_database_url(options.database_url);
  if (!described) {
    return described.error();
  }
  metrics.track_database();
  options.observer =
      std::make_shared<LoggedPostgres>(std::move(*described), logger, metrics, ready);
  return postgres::make_postgres_pet_repository(options, stop);
}

}  // namespace petstore::bootstrap
