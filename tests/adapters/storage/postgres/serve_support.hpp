#pragma once
// What the tests of the binary on PostgreSQL share: SQL run from the test's own libpq connection
// (a session that can hold a lock while the service starts), the serve flags for a URL, a wait
// for /readyz to answer a given status, and the binary started on a database that is down.

#include <chrono>
#include <cstdint>
#include <libpq-fe.h>
#include <string>
#include <vector>

#include "bootstrap/cli_fixture.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace petstore::tests {

// SqlSession: a blocking connection of the test's; each statement must succeed.
class SqlSession {
 public:
  explicit SqlSession(const std::string& url);
  SqlSession(const SqlSession&) = delete;
  SqlSession& operator=(const SqlSession&) = delete;
  ~SqlSession();
  // run: `sql`'s first value (empty when it has none); a gtest failure when it fails.
  std::string run(const std::string& sql);

 private:
  PGconn* conn_;
};

// The advisory lock the service takes to migrate (adapters/storage/postgres/postgres_schema.cpp).
inline constexpr const char* migration_lock_key = "8098991380479520357";

[[nodiscard]] std::vector<std::string> postgres_flags(const std::string& url,
                                                      std::vector<std::string> extra = {});

// wait_for_readiness: polls /readyz until it answers `status`; how long that took, or nullopt
// after `timeout`.
[[nodiscard]] bool wait_for_readiness(std::uint16_t port, unsigned status,
                                      std::chrono::milliseconds timeout,
                                      std::chrono::milliseconds* took = nullptr);

// DatabaseDownAtStart: a PostgreSQL server of the test's own, with a database, stopped before the
// binary starts serving on it (with a key in `dir`); the binary listens and retries the database,
// and `server.start()` brings it back.
struct DatabaseDownAtStart {
  DatabaseDownAtStart();

  PostgresServer server;
  std::string url;
  TempDir dir;
  ServedPetstore served;
};

}  // namespace petstore::tests
