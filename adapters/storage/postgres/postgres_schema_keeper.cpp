#include "adapters/storage/postgres/postgres_schema_keeper.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_schema.hpp"

namespace petstore::adapters::storage::postgres {

void keep_schema(BackgroundWorker& worker, const ConnectTarget& target, PostgresObserver& observer,
                 std::function<void()> ready) {
  // The pause and the last refusal are the job's own state, kept as the worker runs it again.
  auto attempt = [&target, &observer, ready = std::move(ready), pause = schema_first_pause,
                  last_refusal = std::string()](const std::stop_token& stop) mutable
      -> std::optional<BackgroundWorker::Clock::time_point> {
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
      if (reason != last_refusal) {
        observer.schema_refused(reason);
      }
      last_refusal = reason;
      pause = schema_longest_pause;
    } else {
      observer.connect_failed(target.description, reason);
      pause = std::min(pause * 2, schema_longest_pause);
    }
    return Clock::now() + pause;
  };
  (void)worker.post({std::move(attempt), {}}, BackgroundWorker::Clock::now() + schema_first_pause);
}

}  // namespace petstore::adapters::storage::postgres
