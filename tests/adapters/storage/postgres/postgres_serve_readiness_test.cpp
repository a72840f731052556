// What /readyz and the start say of a database the binary cannot use or that stops answering
// (issue 28): a damaged schema version exits 1 with one line at start, and in a running process
// is one logged error and an unready service, never a crash; a database that stops answering
// turns /readyz 503 within 5 s with no traffic at all, and 200 again once it answers.

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/postgres_cutting_proxy.hpp"
#include "support/postgres_server.hpp"

#include "serve_support.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

struct DamagedVersion {
  const char* column_type;
  const char* value;
};

std::string damaging_sql(const DamagedVersion& damage) {
  return std::string("CREATE SCHEMA petstore; CREATE TABLE petstore.schema_version (version ") +
         damage.column_type + " NOT NULL); INSERT INTO petstore.schema_version VALUES ('" +
         damage.value + "')";
}

class DamagedSchemaVersion : public ::testing::TestWithParam<DamagedVersion> {};

TEST_P(DamagedSchemaVersion, ExitsOneWithOneLineAtStart) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  SqlSession(url).run(damaging_sql(GetParam()));
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  const auto serve = run_petstore(serve_args(dir.path() / "keys", postgres_flags(url)));
  EXPECT_EQ(serve.status.code, 1) << serve.err;
  EXPECT_EQ(std::count(serve.err.begin(), serve.err.end(), '\n'), 1) << serve.err;
  EXPECT_NE(serve.err.find("schema_version"), std::string::npos) << serve.err;
}

INSTANTIATE_TEST_SUITE_P(Values, DamagedSchemaVersion,
                         ::testing::Values(DamagedVersion{"text", "two"},
                                           DamagedVersion{"bigint", "99999999999"},
                                           DamagedVersion{"integer", "-1"}));

// Down at start, then back with a damaged version: one error line, /readyz 503, still serving.
// The version is damaged before the database goes down: damaged after it is back, it would race
// the service, which creates the schema as soon as it can connect.
TEST(PostgresServeReadiness, ADamagedVersionFoundLaterIsOneErrorAndUnready) {
  PostgresServer server;
  const std::string url = server.url(server.create_database());
  SqlSession(url).run(damaging_sql({"text", "two"}));
  server.stop();
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  ServedPetstore served(petstore(serve_args(dir.path() / "keys", postgres_flags(url))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stdout();
  server.start();
  ASSERT_TRUE(served.child().wait_for_stdout_line("database_schema_refused", 15s))
      << served.child().captured_stdout();
  std::this_thread::sleep_for(6s);  // another attempt or two, past the longest pause
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  EXPECT_EQ(http_call(served.port(), "GET", "/readyz").status, 503U);
  const std::string out = served.child().captured_stdout();
  std::size_t refusals = 0;
  for (auto at = out.find("database_schema_refused"); at != std::string::npos;
       at = out.find("database_schema_refused", at + 1)) {
    ++refusals;
  }
  EXPECT_EQ(refusals, 1U) << out;
  EXPECT_TRUE(served.stop(SIGTERM, 5s).exited_with(0)) << served.child().captured_stderr();
}

// No request at all: the probe alone notices a database that stops answering.
TEST(PostgresServeReadiness, ReadyzTurns503WithinFiveSecondsOfADatabaseThatStopsAnswering) {
  auto& server = shared_postgres_server();
  const std::string database = server.create_database();
  PostgresCuttingProxy proxy(server);
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  ServedPetstore served(petstore(serve_args(
      dir.path() / "keys", postgres_flags(proxy.url(database), {"--database-timeout", "60"}))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stdout();
  ASSERT_TRUE(wait_for_readiness(served.port(), 200, 10s));

  proxy.stall(true);
  std::chrono::milliseconds took{};
  EXPECT_TRUE(wait_for_readiness(served.port(), 503, 10s, &took));
  EXPECT_LT(took, 5s);
  const auto readiness = http_call(served.port(), "GET", "/readyz");
  EXPECT_NE(readiness.body.find("the storage is unavailable"), std::string::npos) << readiness.body;

  proxy.stall(false);
  EXPECT_TRUE(wait_for_readiness(served.port(), 200, 15s)) << served.child().captured_stdout();
  EXPECT_TRUE(served.stop(SIGTERM, 12s).exited_with(0)) << served.child().captured_stderr();
}

}  // namespace
}  // namespace petstore::tests
