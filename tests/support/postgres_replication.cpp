// PostgresServer's replication steps (see postgres_server.hpp): making a primary wait for its
// standby at every commit, and promoting a standby. Both go through a libpq connection of the
// test's own, as an operator or a manager such as Patroni would.

#include <chrono>
#include <libpq-fe.h>
#include <stdexcept>
#include <thread>

#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// poll: `done()` every 100 ms until it holds; false after 60 s.
template <typename Done>
bool poll(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(100ms);
  }
  return true;
}

}  // namespace

std::optional<std::string> PostgresServer::query(const std::string& sql) const {
  PGconn* conn = PQconnectdb(url("postgres").c_str());
  PGresult* result = PQexec(conn, sql.c_str());
  const auto status = PQresultStatus(result);
  std::optional<std::string> first;
  if (status == PGRES_TUPLES_OK && PQntuples(result) > 0 && PQnfields(result) > 0) {
    first = PQgetvalue(result, 0, 0);
  } else if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
    first = "";
  }
  PQclear(result);
  PQfinish(conn);
  return first;
}

void PostgresServer::make_synchronous() {
  if (!query("ALTER SYSTEM SET synchronous_standby_names = '*'") ||
      !query("SELECT pg_reload_conf()")) {
    throw std::runtime_error("cannot set synchronous_standby_names:\n" + log());
  }
  if (!poll([&] {
        return query("SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == "1";
      })) {
    throw std::runtime_error("no standby became synchronous within 60 s:\n" + log());
  }
}

void PostgresServer::promote() {
  (void)query("SELECT pg_promote(true, 60)");
  if (!poll([&] { return query("SELECT pg_is_in_recovery()") == "f"; })) {
    throw std::runtime_error("the standby was not promoted within 60 s:\n" + log());
  }
}

}  // namespace petstore::tests
