#include "adapters/storage/postgres/postgres_pet_repository.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "adapters/storage/postgres/postgres_pool.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "adapters/storage/postgres/postgres_replica_reads.hpp"
#include "adapters/storage/postgres/postgres_schema.hpp"
#include "adapters/storage/postgres/postgres_target.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// The longest the schema's first attempt holds the start back, whatever the call timeout: past
// it the service listens, unready, and the schema is tried again in the background.
constexpr std::chrono::seconds first_attempt_limit{5};
// The pause between the schema's later attempts doubles from the first to the longest.
constexpr std::chrono::milliseconds schema_first_pause{250};
constexpr std::chrono::milliseconds schema_longest_pause{5000};

PoolSettings with_worker(PoolSettings settings, BackgroundWorker& worker) {
  settings.worker = &worker;
  return settings;
}

class PostgresPetRepository final : public ports::PetRepository {
 public:
  // `settings.observer` is `observer`, which the repository keeps alive.
  PostgresPetRepository(const PoolSettings& settings, std::shared_ptr<PostgresObserver> observer,
                        std::chrono::milliseconds call_timeout, std::vector<ConnectTarget> replicas)
      : call_timeout_(call_timeout),
        target_(settings.target),
        observer_(std::move(observer)),
        pool_(with_worker(settings, worker_)) {
    if (!replicas.empty()) {
      replicas_ =
          std::make_unique<ReplicaReads>(pool_, std::move(replicas), settings.size, *observer_);
    }
  }

  // Answers every pending call unavailable, waiting for no database. The primary's pool closes
  // before the replicas: reads the replicas give back on closing fall back to it, and it answers
  // them unavailable at once.
  ~PostgresPetRepository() override {
    worker_.close();
    pool_.close();
    replicas_.reset();
  }

  // keep_trying_schema: the worker retries the schema, each attempt within the call timeout, until
  // one succeeds or the worker closes. Failures are reported as connect_failed, or schema_refused
  // once per distinct reason (it keeps trying: an operator may repair the schema).
  void keep_trying_schema() {
    // The pause and the last refusal are the job's own state, kept as the worker runs it again.
    auto attempt = [this, pause = schema_first_pause,
                    last_refusal = std::string()](const std::stop_token& stop) mutable
        -> std::optional<BackgroundWorker::Clock::time_point> {
      using Clock = BackgroundWorker::Clock;
      const auto migrated = migrate_schema(target_, Clock::now() + target_.timeout, stop);
      if (stop.stop_requested()) {
        return std::nullopt;
      }
      if (migrated) {
        pool_.schema_ready();
        return std::nullopt;
      }
      const auto& reason = migrated.error().message;
      if (migrated.error().code != domain::ErrorCode::unavailable) {
        if (reason != last_refusal) {
          observer_->schema_refused(reason);
        }
        last_refusal = reason;
        pause = schema_longest_pause;
      } else {
        observer_->connect_failed(target_.description, reason);
        pause = std::min(pause * 2, schema_longest_pause);
      }
      return Clock::now() + pause;
    };
    (void)worker_.post({std::move(attempt), {}},
                       BackgroundWorker::Clock::now() + schema_first_pause);
  }

  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override {
    const auto until = deadline_for(done);
    pool_.create(PendingCreate{std::move(command), std::move(done), until, {}});
  }

  void get(domain::PetId id, GetDone done) const override {
    const auto until = deadline_for(done);
    read_fresh(get_work(id, std::move(done)), until);
  }

  void list(ports::PetQuery query, ListDone done) const override {
    const auto until = deadline_for(done);
    read_fresh(list_work(query, std::move(done)), until);
  }

  void count(CountDone done) const override {
    const auto until = deadline_for(done);
    read(count_work(std::move(done)), until);
  }

 private:
  // deadline_for: the caller's deadline (the request's: one clock from HTTP to the database),
  // or the adapter's own call timeout for a caller that set none.
  template <class T>
  [[nodiscard]] ports::Deadline deadline_for(const ports::Completion<T>& done) const {
    return done.deadline() != ports::no_deadline ? done.deadline()
                                                 : std::chrono::steady_clock::now() + call_timeout_;
  }

  // Reads do not change the repository as the port sees it; the pool is its machinery.
  void read(Work work, ports::Deadline until) const {
    work.deadline = until;
    pool_.read(std::move(work));
  }

  // read_fresh: a get or list, which replicas may serve when they have caught up.
  void read_fresh(Work work, ports::Deadline until) const {
    if (replicas_) {
      work.deadline = until;
      replicas_->read(std::move(work));
      return;
    }
    observer_->read_served(false, "no_replica");
    read(std::move(work), until);
  }

  std::chrono::milliseconds call_timeout_;
  const ConnectTarget target_;
  const std::shared_ptr<PostgresObserver> observer_;  // before the pool, which reports to it
  BackgroundWorker worker_;                           // before the pool, which resolves on it
  mutable Pool pool_;
  std::unique_ptr<ReplicaReads> replicas_;  // null without a read URL
};

// replica_targets: one target per host of the read URL (none without one).
domain::Result<std::vector<ConnectTarget>> replica_targets(const PostgresOptions& options) {
  std::vector<ConnectTarget> replicas;
  if (options.read_url.empty()) {
    return replicas;
  }
  auto parsed = parse_url(options.read_url, "--database-read-url");
  if (!parsed) {
    return parsed.error();
  }
  if (parsed->hosts.empty()) {  // libpq's default host: one replica
    parsed->hosts.push_back(TargetHost{{}, {}, parsed->description});
  }
  for (const auto& host : parsed->hosts) {
    replicas.push_back(replica_target_for(options, *parsed, host));
  }
  return replicas;
}

}  // namespace

domain::Result<std::string> describe_database_url(const std::string& url, std::string_view flag) {
  auto parsed = parse_url(url, flag);
  if (!parsed) {
    return parsed.error();
  }
  return std::move(parsed->description);
}

domain::Result<std::unique_ptr<ports::PetRepository>> make_postgres_pet_repository(
    const PostgresOptions& options, const std::stop_token& stop) {
  auto parsed = parse_url(options.database_url);
  if (!parsed) {
    return parsed.error();
  }
  auto replicas = replica_targets(options);
  if (!replicas) {
    return replicas.error();
  }
  PoolSettings settings;
  settings.target = target_for(options, std::move(*parsed));
  settings.size = std::max<std::size_t>(1, options.pool_size);
  settings.observer = options.observer.get();
  const auto first_attempt =
      std::min<std::chrono::milliseconds>(options.call_timeout, first_attempt_limit);
  const auto migrated =
      migrate_schema(settings.target, std::chrono::steady_clock::now() + first_attempt, stop);
  if (!migrated && migrated.error().code != domain::ErrorCode::unavailable) {
    return migrated.error();
  }
  if (!migrated) {
    options.observer->connect_failed(settings.target.description, migrated.error().message);
  }
  settings.schema_ready = migrated.has_value();
  auto repository = std::make_unique<PostgresPetRepository>(
      settings, options.observer, options.call_timeout, std::move(*replicas));
  if (!migrated) {
    repository->keep_trying_schema();
  }
  return std::unique_ptr<ports::PetRepository>(std::move(repository));
}

}  // namespace petstore::adapters::storage::postgres
