#include "serve_support.hpp"

#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "support/raw_http_connection.hpp"

namespace petstore::tests {

SqlSession::SqlSession(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
  EXPECT_EQ(PQstatus(conn_), CONNECTION_OK) << PQerrorMessage(conn_);
}

SqlSession::~SqlSession() { PQfinish(conn_); }

std::string SqlSession::run(const std::string& sql) {
  PGresult* result = PQexec(conn_, sql.c_str());
  const auto status = PQresultStatus(result);
  EXPECT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
      << sql << ": " << PQerrorMessage(conn_);
  std::string first;
  if (status == PGRES_TUPLES_OK && PQntuples(result) > 0 && PQnfields(result) > 0) {
    first = PQgetvalue(result, 0, 0);
  }
  PQclear(result);
  return first;
}

std::vector<std::string> postgres_flags(const std::string& url, std::vector<std::string> extra) {
  std::vector<std::string> flags{"--storage", "postgres", "--database-url", url};
  for (auto& flag : extra) {
    flags.push_back(std::move(flag));
  }
  return flags;
}

bool wait_for_readiness(std::uint16_t port, unsigned status, std::chrono::milliseconds timeout,
                        std::chrono::milliseconds* took) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < timeout) {
    if (http_call(port, "GET", "/readyz").status == status) {
      if (took != nullptr) {
        *took = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - start);
      }
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

namespace {

std::string stopped_database_url(PostgresServer& server) {
  std::string url = server.url(server.create_database());
  server.stop();
  return url;
}

ServedPetstore serve_with_a_key(const TempDir& dir, const std::string& url) {
  (void)make_key(dir.path() / "keys");
  return ServedPetstore(petstore(serve_args(dir.path() / "keys", postgres_flags(url))));
}

}  // namespace

DatabaseDownAtStart::DatabaseDownAtStart()
    : url(stopped_database_url(server)), served(serve_with_a_key(dir, url)) {}

}  // namespace petstore::tests
