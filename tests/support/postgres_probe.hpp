#pragma once
// Small libpq probes for tests that watch the server beside the adapter: the first value of a
// query, and the pid of a backend of the current database caught in a given wait, polled for.

#include <chrono>
#include <libpq-fe.h>
#include <string>
#include <thread>

namespace petstore::tests {

// first_value: the first value of `sql` on `conn`, "" when it has none (or failed).
inline std::string first_value(PGconn* conn, const std::string& sql) {
  PGresult* result = PQexec(conn, sql.c_str());
  std::string value = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0
                          ? PQgetvalue(result, 0, 0)
                          : "";
  PQclear(result);
  return value;
}

// waiting_backend: the pid of a backend of the current database whose pg_stat_activity row
// matches `condition` (e.g. "wait_event = 'SyncRep'"), polled for up to `patience`; "" if none.
inline std::string waiting_backend(PGconn* watcher, const std::string& condition,
                                   std::chrono::milliseconds patience) {
  const auto until = std::chrono::steady_clock::now() + patience;
  for (;;) {
    std::string pid = first_value(watcher, "SELECT pid FROM pg_stat_activity WHERE " + condition +
                                               " AND datname = current_database()");
    if (!pid.empty() || std::chrono::steady_clock::now() >= until) {
      return pid;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace petstore::tests
