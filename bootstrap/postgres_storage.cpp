#include "bootstrap/postgres_storage.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace petstore::bootstrap {
namespace {

// How often petstore_pets_stored is read again from the counter row, so that each instance's
// gauge follows the creates of every other (one row read: no scan).
constexpr std::chrono::seconds pets_stored_refresh{15};

// CountRefreshingRepository: the PostgreSQL repository, plus a thread that sets the
// petstore_pets_stored gauge from the database's count every pets_stored_refresh. Other
// instances create too, so this process's own creates alone would let the gauge drift.
class CountRefreshingRepository final : public ports::PetRepository {
 public:
  CountRefreshingRepository(std::unique_ptr<ports::PetRepository> inner,
                            adapters::metrics::Metrics& metrics)
      : inner_(std::move(inner)), metrics_(metrics), thread_([this] { refresh(); }) {}

  CountRefreshingRepository(const CountRefreshingRepository&) = delete;
  CountRefreshingRepository& operator=(const CountRefreshingRepository&) = delete;

  // Stops the thread before the repository goes (a count in flight only touches the metrics,
  // which outlive this).
  ~CountRefreshingRepository() override {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override {
    inner_->create(std::move(command), std::move(done));
  }
  // PetRepository
  void get(domain::PetId id, GetDone done) const override { inner_->get(id, std::move(done)); }
  // PetRepository
  void list(ports::PetQuery query, ListDone done) const override {
    inner_->list(query, std::move(done));
  }
  // PetRepository
  void count(CountDone done) const override { inner_->count(std::move(done)); }

 private:
  void refresh() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, pets_stored_refresh, [this] { return stopping_; })) {
      inner_->count([&metrics = metrics_](domain::Result<std::int64_t> count) {
        if (count) {
          metrics.set_pets_stored(*count);
        }
      });
    }
  }

  std::unique_ptr<ports::PetRepository> inner_;
  adapters::metrics::Metrics& metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace

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
  auto repository =
      adapters::storage::postgres::make_postgres_pet_repository(options, std::move(stop));
  if (!repository) {
    return repository.error();
  }
  return std::unique_ptr<ports::PetRepository>(
      std::make_unique<CountRefreshingRepository>(std::move(*repository), metrics));
}

}  // namespace petstore::bootstrap
