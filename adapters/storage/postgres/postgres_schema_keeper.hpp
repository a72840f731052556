#pragma once
// keep_schema: when the schema could not be made ready at start (the database unreachable, its
// migration lock held elsewhere), the adapter's background worker tries again with a growing
// pause, each attempt bounded by the call timeout, until one succeeds; then it tells `ready`. It
// never runs on a poll loop's thread, and closing the worker stops it within a poll slice,
// whatever the database does. Failed attempts are reported as connect_failed; a schema this binary
// cannot use as schema_refused, once per distinct reason (it keeps trying: an operator may repair
// it).

#include <chrono>
#include <functional>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/worker/background_worker.hpp"

namespace petstore::adapters::storage::postgres {

using worker::BackgroundWorker;

inline constexpr std::chrono::milliseconds schema_first_pause{250};
inline constexpr std::chrono::milliseconds schema_longest_pause{5000};

// `target` and `observer` must outlive the worker's jobs; `ready` runs on the worker's thread.
void keep_schema(BackgroundWorker& worker, const ConnectTarget& target, PostgresObserver& observer,
                 std::function<void()> ready);

}  // namespace petstore::adapters::storage::postgres
