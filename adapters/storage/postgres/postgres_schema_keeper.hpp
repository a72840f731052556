#pragma once
// SchemaKeeper: when the schema could not be made ready at start (the database unreachable, its
// migration lock held elsewhere), a thread of its own tries again with a growing pause, each
// attempt bounded by the call timeout, until one succeeds; then it tells `ready` and ends. It
// never runs on a poll loop's thread, and its destructor stops it within a poll slice, whatever
// the database does. Failed attempts are reported as connect_failed; a schema this binary cannot
// use as schema_refused, once per distinct reason (it keeps trying: an operator may repair it).

#include <chrono>
#include <functional>
#include <thread>

#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"

namespace petstore::adapters::storage::postgres {

class SchemaKeeper {
 public:
  // `target` and `observer` must outlive the keeper; `ready` runs on its thread.
  SchemaKeeper(const ConnectTarget& target, PostgresObserver& observer,
               std::function<void()> ready);
  SchemaKeeper(const SchemaKeeper&) = delete;
  SchemaKeeper& operator=(const SchemaKeeper&) = delete;
  ~SchemaKeeper() = default;  // the jthread asks the thread to stop and joins it

  static constexpr std::chrono::milliseconds first_pause{250};
  static constexpr std::chrono::milliseconds longest_pause{5000};

 private:
  void run(const std::stop_token& stop);

  const ConnectTarget& target_;
  PostgresObserver& observer_;
  std::function<void()> ready_;
  std::jthread thread_;  // last: started once the rest is set
};

}  // namespace petstore::adapters::storage::postgres
