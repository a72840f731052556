#include "adapters/storage/postgres/postgres_schema_keeper.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_schema.hpp"

namespace petstore::adapters::storage::postgres {

void keep_schema(BackgroundWorker& worker, const ConnectTarget& target, PostgresObserver& observer,
                 std::function<void()> ready) {
  struct Attempts {
    std::chrono::milliseconds pause = schema_first_pause;
    std::string last_refusal;
  };
  auto attempts = std::make_shared<Attempts>();
  const auto attempt =
      [&target, &observer, ready = std::move(ready), attempts](
          const std::stop_token& stop) -> std::optional<BackgroundWorker::Clock::time_point> {
    using Clock = BackgroundWorker::Clock;
    const auto migrated = migrate_schema(target, Clock::now() + target.timeout, stop);
    if (stop.stop_requested()) {
      return std::nullopt;
    }
    if (migrated) {
      ready();
      return std::nullopt;
    }
    const auto& reason = migrated.error().message;
    if (migrated.error().code != domain::ErrorCode::unavailable) {
      if (reason != attempts->last_refusal) {
        observer.schema_refused(reason);
      }
      attempts->last_refusal = reason;
      attempts->pause = schema_longest_pause;
    } else {
      observer.connect_failed(target.description, reason);
      attempts->pause = std::min(attempts->pause * 2, schema_longest_pause);
    }
    return Clock::now() + attempts->pause;
  };
  (void)worker.post({attempt, {}}, BackgroundWorker::Clock::now() + schema_first_pause);
}

}  // namespace petstore::adapters::storage::postgres
