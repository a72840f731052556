#include "adapters/storage/postgres/postgres_pet_repository.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_pool.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "adapters/storage/postgres/postgres_schema.hpp"
#include "adapters/storage/postgres/postgres_target.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// Threads that run the connections: two keep one busy pipeline from delaying every other
// connection's answers, and a poll loop serves many connections, so more rarely pay.
constexpr std::size_t most_loops = 2;

class PostgresPetRepository final : public ports::PetRepository {
 public:
  PostgresPetRepository(PoolSettings settings, std::chrono::milliseconds call_timeout)
      : call_timeout_(call_timeout), pool_(std::move(settings)) {}

  // Answers every pending call (queued ones unavailable), then closes the connections.
  ~PostgresPetRepository() override { pool_.close(); }

  PostgresPetRepository(const PostgresPetRepository&) = delete;
  PostgresPetRepository& operator=(const PostgresPetRepository&) = delete;

  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override {
    pool_.create(PendingCreate{std::move(command), std::move(done), deadline(), {}});
  }

  // PetRepository
  void get(domain::PetId id, GetDone done) const override { read(get_work(id, std::move(done))); }

  // PetRepository
  void list(ports::PetQuery query, ListDone done) const override {
    read(list_work(query, std::move(done)));
  }

  // PetRepository
  void count(CountDone done) const override { read(count_work(std::move(done))); }

 private:
  [[nodiscard]] std::chrono::steady_clock::time_point deadline() const {
    return std::chrono::steady_clock::now() + call_timeout_;
  }

  // Reads do not change the repository as the port sees it; the pool is its machinery.
  void read(Work work) const {
    work.deadline = deadline();
    pool_.read(std::move(work));
  }

  std::chrono::milliseconds call_timeout_;
  mutable Pool pool_;
};

}  // namespace

domain::Result<std::string> describe_database_url(const std::string& url) {
  auto parsed = parse_url(url);
  if (!parsed) {
    return parsed.error();
  }
  return std::move(parsed->description);
}

domain::Result<std::unique_ptr<ports::PetRepository>> make_postgres_pet_repository(
    const PostgresOptions& options) {
  auto parsed = parse_url(options.database_url);
  if (!parsed) {
    return parsed.error();
  }
  PoolSettings settings;
  settings.target = target_for(options, std::move(parsed->password));
  settings.size = std::max<std::size_t>(1, options.pool_size);
  settings.loops = std::min(settings.size, most_loops);
  settings.events = options.events;
  const auto migrated = migrate_schema(settings.target);
  if (!migrated && migrated.error().code != domain::ErrorCode::unavailable) {
    return migrated.error();
  }
  if (!migrated && options.events.connect_failed) {
    options.events.connect_failed(migrated.error().message);
  }
  settings.schema_checked = migrated.has_value();
  settings.check_schema = [target = settings.target] { return migrate_schema(target); };
  return std::unique_ptr<ports::PetRepository>(
      std::make_unique<PostgresPetRepository>(std::move(settings), options.call_timeout));
}

}  // namespace petstore::adapters::storage::postgres
