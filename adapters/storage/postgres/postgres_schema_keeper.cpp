#include "adapters/storage/postgres/postgres_schema_keeper.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_schema.hpp"

namespace petstore::adapters::storage::postgres {

SchemaKeeper::SchemaKeeper(const ConnectTarget& target, PostgresObserver& observer,
                           std::function<void()> ready)
    : target_(target),
      observer_(observer),
      ready_(std::move(ready)),
      thread_([this](const std::stop_token& stop) { run(stop); }) {}

void SchemaKeeper::run(const std::stop_token& stop) {
  std::mutex mutex;
  std::condition_variable_any pause_over;  // only a stop wakes it early
  auto pause = first_pause;
  std::string last_refusal;
  for (;;) {
    {
      std::unique_lock lock(mutex);
      (void)pause_over.wait_for(lock, stop, pause, [] { return false; });
    }
    if (stop.stop_requested()) {
      return;
    }
    const auto attempt =
        migrate_schema(target_, std::chrono::steady_clock::now() + target_.timeout, stop);
    if (stop.stop_requested()) {
      return;
    }
    if (attempt) {
      ready_();
      return;
    }
    const auto& reason = attempt.error().message;
    if (attempt.error().code != domain::ErrorCode::unavailable) {
      if (reason != last_refusal) {
        observer_.schema_refused(reason);
      }
      last_refusal = reason;
      pause = longest_pause;
      continue;
    }
    observer_.connect_failed(target_.description, reason);
    pause = std::min(pause * 2, longest_pause);
  }
}

}  // namespace petstore::adapters::storage::postgres
