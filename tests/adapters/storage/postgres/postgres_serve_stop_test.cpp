// The binary on PostgreSQL is never stuck on its database (issue 28, contract sections 7 and 8):
// a migration lock held elsewhere, a database that comes back while it is held, or one that stops
// answering neither hides the listening line nor keeps SIGTERM from stopping the process within
// the drain limit; a second signal stops it at once.

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

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Another session holds the migration's lock: the service listens at once, unready, and is ready
// once the lock is let go; a SIGTERM while it waits stops it at once.
TEST(PostgresServeStop, AHeldMigrationLockLetsTheServiceListenUnreadyAndStop) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  SqlSession holder(url);
  holder.run(std::string("SELECT pg_advisory_lock(") + migration_lock_key + ")");
  const TempDir dir;
  (void)make_key(dir.path() / "keys");

  ServedPetstore served(petstore(serve_args(dir.path() / "keys", postgres_flags(url))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stdout();
  EXPECT_NE(first_line(served.child().captured_stdout()).find("listening"), std::string::npos)
      << served.child().captured_stdout();
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  EXPECT_EQ(http_call(served.port(), "GET", "/readyz").status, 503U);

  holder.run(std::string("SELECT pg_advisory_unlock(") + migration_lock_key + ")");
  EXPECT_TRUE(wait_for_readiness(served.port(), 200, 10s)) << served.child().captured_stdout();
  EXPECT_TRUE(served.stop(SIGTERM, 5s).exited_with(0)) << served.child().captured_stderr();
}

TEST(PostgresServeStop, SigtermStopsAServiceWaitingForTheMigrationLock) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  SqlSession holder(url);
  holder.run(std::string("SELECT pg_advisory_lock(") + migration_lock_key + ")");
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  ServedPetstore served(petstore(serve_args(dir.path() / "keys", postgres_flags(url))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stdout();
  std::this_thread::sleep_for(1s);  // a retry or two of the migration

  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served.stop(SIGTERM, 5s).exited_with(0)) << served.child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

// Unreachable at start, then back while another session holds the lock: the schema's retries
// run on a thread of their own, and SIGTERM still stops the process at once. What storage logged
// meanwhile follows the listening line, the first on stdout.
TEST(PostgresServeStop, ADatabaseBackWhileTheLockIsHeldStillStops) {
  DatabaseDownAtStart down;
  auto& served = down.served;
  ASSERT_NE(served.port(), 0) << served.child().captured_stdout();
  ASSERT_TRUE(served.child().wait_for_stdout_line("database_connect_failed", 10s));
  EXPECT_NE(first_line(served.child().captured_stdout()).find("listening"), std::string::npos)
      << served.child().captured_stdout();

  down.server.start();
  SqlSession holder(down.url);
  holder.run(std::string("SELECT pg_advisory_lock(") + migration_lock_key + ")");
  std::this_thread::sleep_for(6s);  // past the longest pause between two attempts
  EXPECT_EQ(http_call(served.port(), "GET", "/readyz").status, 503U);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served.stop(SIGTERM, 5s).exited_with(0)) << served.child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

// A database that stops answering at start (a black hole, not a refusal): the first attempt is
// bounded, and a SIGTERM during it stops the process at once, whatever --database-timeout says.
TEST(PostgresServeStop, SigtermDuringTheFirstAttemptOnAStalledDatabaseStops) {
  auto& server = shared_postgres_server();
  const std::string database = server.create_database();
  PostgresCuttingProxy proxy(server);
  proxy.stall(true);
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  ChildProcess child(petstore(serve_args(
      dir.path() / "keys", postgres_flags(proxy.url(database), {"--database-timeout", "60"}))));
  std::this_thread::sleep_for(1s);
  ASSERT_TRUE(child.running()) << child.captured_stderr();
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(child.send_signal(SIGTERM));
  EXPECT_TRUE(child.wait_for_exit(5s).exited_with(0)) << child.captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  proxy.stall(false);
}

// Serving, then the database stops answering with a create in flight: the stop ends within the
// drain limit (10 s) even with --database-timeout 60, and a second SIGTERM ends it at once.
class StalledDatabaseStop : public ::testing::Test {
 protected:
  void SetUp() override {
    auto& server = shared_postgres_server();
    const std::string database = server.create_database();
    proxy_ = std::make_unique<PostgresCuttingProxy>(server);
    key_ = make_key(dir_.path() / "keys");
    served_ = std::make_unique<ServedPetstore>(petstore(serve_args(
        dir_.path() / "keys", postgres_flags(proxy_->url(database), {"--database-timeout", "60",
                                                                     "--storage-timeout", "60"}))));
    ASSERT_NE(served_->port(), 0) << served_->child().captured_stdout();
    ASSERT_TRUE(wait_for_readiness(served_->port(), 200, 10s));
    proxy_->stall(true);
    creator_ = std::thread(
        [this] { (void)http_call(served_->port(), "POST", "/v1/pets", key_, pet_json("Stuck")); });
    std::this_thread::sleep_for(500ms);  // the create waits on the database
  }

  void TearDown() override {
    if (creator_.joinable()) {
      creator_.join();
    }
    proxy_->stall(false);
  }

  TempDir dir_;
  std::unique_ptr<PostgresCuttingProxy> proxy_;
  std::string key_;
  std::unique_ptr<ServedPetstore> served_;
  std::thread creator_;
};

TEST_F(StalledDatabaseStop, SigtermExitsWithinTheDrainLimit) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served_->stop(SIGTERM, 15s).exited_with(0)) << served_->child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 11500ms);
}

TEST_F(StalledDatabaseStop, ASecondSigtermExitsAtOnce) {
  ASSERT_TRUE(served_->child().send_signal(SIGTERM));
  std::this_thread::sleep_for(500ms);
  ASSERT_TRUE(served_->child().running());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served_->stop(SIGTERM, 5s).exited_with(0)) << served_->child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

}  // namespace
}  // namespace petstore::tests
