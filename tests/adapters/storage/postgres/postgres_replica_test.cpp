// Reads from replicas (contract section 10) through the real binary: a primary and a streaming
// standby of the test's own (Unix sockets only); instance A writes with no read URL, instance B
// reads with --database-read-url naming the standby. Every pet A acknowledged is in B's next
// read; the standby serves reads when caught up, and when it is paused or stopped the primary
// serves them, fresh and within the deadline, counted in /metrics with the reason; /readyz
// follows the primary only; a cursor walk through B under creates skips no pet.

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"
#include "support/postgres_server.hpp"
#include "support/raw_http_request.hpp"

#include "serve_support.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class PostgresReplicaReads : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    primary = new PostgresServer;
    database = new std::string(primary->create_database());
    standby = new PostgresServer(PostgresServer::StandbyOf{*primary});
  }
  static void TearDownTestSuite() {
    delete standby;
    delete database;
    delete primary;
  }

  void SetUp() override {
    if (!standby->running()) {
      standby->start();
    }
    key_ = make_key(dir_.path() / "keys");
    const auto url = primary->url(*database);
    const std::vector<std::string> timeouts{"--storage-timeout", "2"};
    writer_ = std::make_unique<ServedPetstore>(
        petstore(serve_args(dir_.path() / "keys", postgres_flags(url, timeouts))));
    auto read_flags = timeouts;
    read_flags.insert(read_flags.end(), {"--database-read-url", standby->url(*database)});
    reader_ = std::make_unique<ServedPetstore>(
        petstore(serve_args(dir_.path() / "keys", postgres_flags(url, read_flags))));
    ASSERT_NE(writer_->port(), 0);
    ASSERT_NE(reader_->port(), 0);
    ASSERT_TRUE(wait_for_readiness(writer_->port(), 200, 30s));
    ASSERT_TRUE(wait_for_readiness(reader_->port(), 200, 30s));
  }

  // create: a pet through A; its id, or -1.
  std::int64_t create(const std::string& name) {
    const auto answer = http_call(writer_->port(), "POST", "/v1/pets", key_, pet_json(name));
    EXPECT_EQ(answer.status, 201U) << answer;
    return pet_id_of(answer.body);
  }

  // visible_through_reader: B's get of `id` and B's list from just below it both show the pet.
  bool visible_through_reader(std::int64_t id) {
    const auto got = http_call(reader_->port(), "GET", "/v1/pets/" + std::to_string(id), key_);
    const auto listed =
        http_call(reader_->port(), "GET", "/v1/pets?limit=1&after=" + std::to_string(id - 1), key_);
    const auto page = parse_json(listed.body);
    return got.status == 200 && pet_id_of(got.body) == id && listed.status == 200 &&
           page.is_array() && page.as_array().size() == 1 &&
           page.as_array()[0].as_object().at("id").to_number<std::int64_t>() == id;
  }

  // reads: B's petstore_storage_reads_total for `served_by` and `reason`.
  std::int64_t reads(const std::string& served_by, const std::string& reason) {
    const auto metrics = http_call(reader_->port(), "GET", "/metrics");
    const std::string sample =
        "petstore_storage_reads_total{served_by=\"" + served_by + "\",reason=\"" + reason + "\"} ";
    const auto at = metrics.body.find(sample);
    return at == std::string::npos ? -1 : std::stoll(metrics.body.substr(at + sample.size()));
  }

  static PostgresServer* primary;
  static PostgresServer* standby;
  static std::string* database;
  TempDir dir_;
  std::string key_;
  std::unique_ptr<ServedPetstore> writer_;
  std::unique_ptr<ServedPetstore> reader_;
};

PostgresServer* PostgresReplicaReads::primary = nullptr;
PostgresServer* PostgresReplicaReads::standby = nullptr;
std::string* PostgresReplicaReads::database = nullptr;

TEST_F(PostgresReplicaReads, EveryPetAcknowledgedByAnotherInstanceIsInTheNextReadAndReplicasServe) {
  const auto replica_before = reads("replica", "");
  for (int n = 0; n < 100; ++n) {
    const auto id = create("fresh-" + std::to_string(n));
    ASSERT_GT(id, 0);
    ASSERT_TRUE(visible_through_reader(id)) << "pet " << id << " was missing right after its 201";
  }
  const auto served = reads("replica", "") - replica_before;
  const auto lagging = reads("primary", "replica_lagging");
  std::cout << "replica served " << served << " of 200 reads; primary (lagging) " << lagging
            << "\n";
  EXPECT_GT(served, 100) << "the replica served too few reads";
}

TEST_F(PostgresReplicaReads, AReplicaPausedLeavesReadsFreshOnThePrimaryAndServesAgainOnResume) {
  SqlSession standby_session(standby->url("postgres"));
  standby_session.run("SELECT pg_wal_replay_pause()");
  const auto lagging_before = reads("primary", "replica_lagging");
  for (int n = 0; n < 10; ++n) {
    const auto id = create("paused-" + std::to_string(n));
    const auto started = Clock::now();
    EXPECT_TRUE(visible_through_reader(id)) << "a read went stale while the replica was paused";
    EXPECT_LT(Clock::now() - started, 1s);
  }
  EXPECT_GT(reads("primary", "replica_lagging"), lagging_before);
  EXPECT_EQ(http_call(reader_->port(), "GET", "/readyz").status, 200U);

  standby_session.run("SELECT pg_wal_replay_resume()");
  std::this_thread::sleep_for(300ms);  // past the pause after a replica could not catch up
  const auto replica_before = reads("replica", "");
  for (int n = 0; n < 10; ++n) {
    EXPECT_TRUE(visible_through_reader(create("resumed-" + std::to_string(n))));
  }
  EXPECT_GT(reads("replica", ""), replica_before) << "the replica did not serve again";
}

TEST_F(PostgresReplicaReads, AReplicaDownLeavesReadsAnsweredWithinTheDeadlineAndReady) {
  standby->stop();
  const auto down_before = reads("primary", "replica_down");
  for (int n = 0; n < 5; ++n) {
    const auto id = create("down-" + std::to_string(n));
    const auto started = Clock::now();
    EXPECT_TRUE(visible_through_reader(id)) << "a read failed while the replica was down";
    EXPECT_LT(Clock::now() - started, 2s) << "past the 2 s storage deadline";
  }
  EXPECT_GT(reads("primary", "replica_down"), down_before);
  EXPECT_EQ(http_call(reader_->port(), "GET", "/readyz").status, 200U);
  EXPECT_TRUE(reader_->child().wait_for_stdout_line("database_replica_failed", 10s));
}

TEST_F(PostgresReplicaReads, ACursorWalkThroughTheReplicaSkipsNoPetWhileCreatesRun) {
  std::atomic<bool> creating{true};
  std::thread writer([&] {
    for (int n = 0; creating; ++n) {
      (void)create("walk-" + std::to_string(n));
    }
  });
  std::vector<std::int64_t> walked;
  const auto until = Clock::now() + 3s;
  for (std::int64_t after = 0; Clock::now() < until;) {
    const auto page =
        http_call(reader_->port(), "GET", "/v1/pets?limit=7&after=" + std::to_string(after), key_);
    ASSERT_EQ(page.status, 200U) << page;
    const auto pets = parse_json(page.body);
    for (const auto& pet : pets.as_array()) {
      after = pet.as_object().at("id").to_number<std::int64_t>();
      walked.push_back(after);
    }
  }
  creating = false;
  writer.join();
  ASSERT_FALSE(walked.empty());
  // Every stored pet up to the walk's last id was in the walk.
  const std::set<std::int64_t> seen(walked.begin(), walked.end());
  for (std::int64_t after = 0; after < walked.back();) {
    const auto page = http_call(writer_->port(), "GET",
                                "/v1/pets?limit=100&after=" + std::to_string(after), key_);
    ASSERT_EQ(page.status, 200U);
    const auto pets = parse_json(page.body);
    ASSERT_FALSE(pets.as_array().empty());
    for (const auto& pet : pets.as_array()) {
      after = pet.as_object().at("id").to_number<std::int64_t>();
      if (after <= walked.back()) {
        EXPECT_TRUE(seen.contains(after)) << "the walk skipped pet " << after;
      }
    }
  }
  EXPECT_GT(reads("replica", ""), 0);
}

// The read URL's password: the replica refuses every connection with a message quoting it (the
// value of a setting the URL asks for). Reads fall back to the primary; the log names the failure
// with the password masked, and neither the log, /metrics nor --help shows it.
TEST(PostgresReplicaPassword, ThePasswordOfTheReadUrlAppearsNowhere) {
  const std::string secret = "read-url-secret-4711";
  auto& server = shared_postgres_server();
  const std::string database = server.create_database();
  const std::string read_url =
      server.url(database) + "&password=" + secret + "&options=-c%20work_mem%3D" + secret;
  const TempDir dir;
  const std::string key = make_key(dir.path() / "keys");
  ServedPetstore served(
      petstore(serve_args(dir.path() / "keys", postgres_flags(server.url(database))),
               {{"PETSTORE_DATABASE_READ_URL", read_url}}));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  ASSERT_TRUE(wait_for_readiness(served.port(), 200, 30s));
  EXPECT_TRUE(served.child().wait_for_stdout_line("database_replica_failed", 10s));
  const auto created = http_call(served.port(), "POST", "/v1/pets", key, pet_json("Rex"));
  ASSERT_EQ(created.status, 201U) << created;
  const auto id = std::to_string(pet_id_of(created.body));
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets/" + id, key).status, 200U);
  const auto metrics = http_call(served.port(), "GET", "/metrics");
  EXPECT_NE(metrics.body.find(
                R"(petstore_storage_reads_total{served_by="primary",reason="replica_down"} 1)"),
            std::string::npos)
      << metrics.body;
  EXPECT_EQ(metrics.body.find(secret), std::string::npos);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const std::string output = served.child().captured_stdout() + served.child().captured_stderr();
  EXPECT_NE(output.find("work_mem"), std::string::npos) << output;  // the server's message
  EXPECT_EQ(output.find(secret), std::string::npos) << output;
  const auto help = run_petstore({"serve", "--help"}, {{"PETSTORE_DATABASE_READ_URL", read_url}});
  EXPECT_EQ((help.out + help.err).find(secret), std::string::npos);
  const auto refused = run_petstore(serve_args(
      dir.path() / "keys",
      postgres_flags(server.url(database),
                     {"--database-read-url", "postgresql://x:" + secret + "@h/d?bad_keyword=1"})));
  EXPECT_EQ(refused.status.code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--database-read-url"), std::string::npos) << refused.err;
  EXPECT_EQ((refused.out + refused.err).find(secret), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace petstore::tests
