#include "bootstrap/postgres_storage.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <utility>

namespace petstore::bootstrap {

domain::Result<std::unique_ptr<ports::PetRepository>> open_postgres_storage(
    adapters::storage::postgres::PostgresOptions options, adapters::logging::Logger& logger,
    adapters::metrics::Metrics& metrics, std::atomic<bool>& ready, std::stop_token stop) {
  auto described = adapters::storage::postgres::describe_database_url(options.database_url);
  if (!described) {
    return described.error();
  }
  // Shared by the callbacks; never holds the password.
  auto database = std::make_shared<const std::string>(std::move(*described));
  metrics.track_database();
  auto& events = options.events;
  events.connect_failed = [&logger, database](std::string_view reason) {
    logger.error("database_connect_failed", {{"database", *database}, {"message", reason}});
  };
  events.connection_lost = [&logger, &metrics, database](std::string_view reason) {
    metrics.database_connection_lost();
    logger.error("database_connection_lost", {{"database", *database}, {"message", reason}});
  };
  events.connection_restored = [&logger, &metrics, database] {
    metrics.database_reconnected();
    logger.info("database_connection_restored", {{"database", *database}});
  };
  events.availability_changed = [&ready](bool available) { ready.store(available); };
  events.pool_changed = [&metrics](std::size_t open, std::size_t in_use) {
    metrics.set_database_connections(open, in_use);
  };
  events.connection_waited = [&metrics](std::chrono::nanoseconds waited) {
    metrics.database_connection_waited(waited);
  };
  events.query_finished = [&metrics](std::chrono::nanoseconds took) {
    metrics.database_query_finished(took);
  };
  events.commit_finished = [&metrics](std::chrono::nanoseconds took, std::size_t /*creates*/) {
    metrics.storage_committed(took);
  };
  events.commit_resolved = [&logger, &metrics, database](std::string_view outcome,
                                                         std::size_t creates,
                                                         std::string_view detail) {
    metrics.storage_commit_resolved(outcome);
    logger.info("storage_commit_resolved", {{"database", *database},
                                            {"outcome", outcome},
                                            {"creates", std::to_string(creates)},
                                            {"message", detail}});
  };
  events.schema_refused = [&logger, database](std::string_view reason) {
    logger.error("database_schema_refused", {{"database", *database}, {"message", reason}});
  };
  events.read_served = [&reads = metrics.reads()](bool replica, std::string_view reason) {
    reads.served(replica, reason);
  };
  events.position_queried = [&reads = metrics.reads()] { reads.position_queried(); };
  events.replica_changed = [&logger](std::string_view replica, std::string_view reason) {
    if (reason.empty()) {
      logger.info("database_replica_restored", {{"replica", replica}});
    } else {
      logger.error("database_replica_failed", {{"replica", replica}, {"message", reason}});
    }
  };
  return adapters::storage::postgres::make_postgres_pet_repository(options, std::move(stop));
}

}  // namespace petstore::bootstrap
