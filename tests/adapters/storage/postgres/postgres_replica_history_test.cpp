// What a replica must prove before it serves reads (contract section 10; issue 39), through the
// real binary against clusters the test starts: a replica left on the dead timeline, whose replay
// position is "ahead" of the promoted standby's, is never read from, and every acknowledged pet is
// in every read; a read URL naming another database, or a standby of another cluster further
// along, is refused, logged once and counted; and with the documented read URL (every node, the
// primary among them) a steady run and a clean stop log no error.

#include <chrono>
#include <csignal>
#include <cstdint>
#include <optional>
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

std::vector<std::string> serve_flags(const std::string& url, const std::string& read_url) {
  return postgres_flags(url, {"--database-read-url", read_url, "--database-timeout", "2",
                              "--storage-timeout", "2", "--log-format", "json"});
}

// create_until_201: a create retried (a failover may be under way) until a 201; its id, or -1.
std::int64_t create_until_201(std::uint16_t port, const std::string& key, const std::string& name) {
  const auto until = Clock::now() + 30s;
  while (Clock::now() < until) {
    const auto answer = http_call(port, api_request("POST", "/v1/pets", key, pet_json(name)), 15s);
    if (answer.status == 201) {
      return pet_id_of(answer.body);
    }
    std::this_thread::sleep_for(100ms);
  }
  return -1;
}

// listed_ids: every id of the first page of 100.
std::set<std::int64_t> listed_ids(std::uint16_t port, const std::string& key) {
  const auto page = http_call(port, "GET", "/v1/pets?limit=100", key);
  std::set<std::int64_t> ids;
  const auto parsed = parse_json(page.body);
  if (page.status == 200 && parsed.is_array()) {
    for (const auto& pet : parsed.as_array()) {
      ids.insert(pet.as_object().at("id").to_number<std::int64_t>());
    }
  }
  return ids;
}

// metric: the value of the sample named `sample` ("name{labels}") in /metrics, or -1.
std::int64_t metric(std::uint16_t port, const std::string& sample) {
  const auto body = http_call(port, "GET", "/metrics").body;
  const auto at = body.find(sample + " ");
  return at == std::string::npos ? -1 : std::stoll(body.substr(at + sample.size() + 1));
}

std::string refusals(const std::string& reason) {
  return "petstore_storage_replica_refusals_total{reason=\"" + reason + "\"}";
}

// log_lines: the service's JSON log lines whose `field` is `value`.
std::vector<boost::json::object> log_lines(const std::string& out, const std::string& field,
                                           const std::string& value) {
  std::vector<boost::json::object> found;
  for (std::size_t at = 0, end = 0; at < out.size(); at = end + 1) {
    end = std::min(out.find('\n', at), out.size());
    const auto line = parse_json(std::string_view(out).substr(at, end - at));
    if (line.is_object() && line.as_object().contains(field) &&
        line.as_object().at(field) == value.c_str()) {
      found.push_back(line.as_object());
    }
  }
  return found;
}

// wait_for_replay: until `standby` has replayed everything `primary` has flushed.
void wait_for_replay(PostgresServer& primary, PostgresServer& standby) {
  SqlSession on_primary(primary.url("postgres"));
  SqlSession on_standby(standby.url("postgres"));
  const std::string flushed = on_primary.run("SELECT pg_current_wal_flush_lsn()");
  const auto until = Clock::now() + 60s;
  while (on_standby.run("SELECT pg_last_wal_replay_lsn() >= '" + flushed + "'::pg_lsn") != "t") {
    ASSERT_LT(Clock::now(), until) << "the standby did not replay " << flushed;
    std::this_thread::sleep_for(50ms);
  }
}

// write_filler: WAL that is no pet's: a table of about 20 MB in the database `postgres`.
void write_filler(PostgresServer& server) {
  SqlSession session(server.url("postgres"));
  session.run(
      "CREATE TABLE filler AS SELECT g, repeat('x', 100) AS pad FROM generate_series(1, 150000) g");
}

TEST(PostgresReplicaHistory, AReplicaLeftOnTheDeadTimelineIsNeverReadFrom) {
  PostgresServer primary;
  const std::string database = primary.create_database();
  PostgresServer promoted(PostgresServer::StandbyOf{primary});
  PostgresServer left_behind(PostgresServer::StandbyOf{primary});
  primary.make_synchronous();
  const std::string url = "postgresql:///" + database + "?host=" + primary.socket_dir().string() +
                          "," + promoted.socket_dir().string() +
                          "&user=petstore&target_session_attrs=read-write";
  TempDir dir;
  const std::string key = make_key(dir.path() / "keys");
  ServedPetstore service(
      petstore(serve_args(dir.path() / "keys", serve_flags(url, left_behind.url(database)))));
  ASSERT_NE(service.port(), 0);
  ASSERT_TRUE(wait_for_readiness(service.port(), 200, 30s));
  std::set<std::int64_t> acknowledged;
  for (int i = 0; i < 10; ++i) {
    acknowledged.insert(create_until_201(service.port(), key, "old-" + std::to_string(i)));
  }
  ASSERT_FALSE(acknowledged.contains(-1));

  // The standby to be promoted stops; the replica left behind replays 20 MB more of the old
  // primary, which is then lost: after the promotion its replay position stays "ahead" of the new
  // primary's flush position for a long while.
  promoted.stop();
  write_filler(primary);
  wait_for_replay(primary, left_behind);
  primary.lose();
  promoted.start();
  promoted.promote();
  for (int i = 0; i < 20; ++i) {
    acknowledged.insert(create_until_201(service.port(), key, "new-" + std::to_string(i)));
  }
  ASSERT_FALSE(acknowledged.contains(-1));
  const auto newest = *acknowledged.rbegin();
  const auto replica_before =
      metric(service.port(), R"(petstore_storage_reads_total{served_by="replica",reason=""})");
  for (int round = 0; round < 40; ++round) {
    EXPECT_EQ(listed_ids(service.port(), key), acknowledged) << "a list missed acknowledged pets";
    EXPECT_EQ(http_call(service.port(), "GET", "/v1/pets/" + std::to_string(newest), key).status,
              200U)
        << "the newest pet was not found";
  }
  EXPECT_EQ(
      metric(service.port(), R"(petstore_storage_reads_total{served_by="replica",reason=""})"),
      replica_before)
      << "the replica left behind served reads";
  EXPECT_GE(metric(service.port(), refusals("other_timeline")), 1);
  const auto refused =
      log_lines(service.child().captured_stdout(), "event", "database_replica_refused");
  ASSERT_FALSE(refused.empty()) << service.child().captured_stdout();
  EXPECT_EQ(refused.back().at("reason"), "other_timeline");
  EXPECT_TRUE(service.stop(SIGTERM).exited_with(0)) << service.child().captured_stderr();
}

// Another database on the replica, and a standby of another cluster further along than the
// primary: each has its own pets, which a read must never answer with.
class PostgresReplicaStrangers : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    primary = new PostgresServer;
    database = new std::string(primary->create_database());
    other_database = new std::string(primary->create_database());
    replica = new PostgresServer(PostgresServer::StandbyOf{*primary});
    other_primary = new PostgresServer;
    (void)other_primary->create_database();  // the same name as `database`, in another cluster
    other_replica = new PostgresServer(PostgresServer::StandbyOf{*other_primary});
  }
  static void TearDownTestSuite() {
    delete other_replica;
    delete other_primary;
    delete replica;
    delete other_database;
    delete database;
    delete primary;
  }

  // seed: four pets stored through a service of its own on `url`.
  void seed(const std::string& url) {
    ServedPetstore writer(petstore(serve_args(keys_, postgres_flags(url))));
    ASSERT_NE(writer.port(), 0);
    ASSERT_TRUE(wait_for_readiness(writer.port(), 200, 30s));
    for (int i = 0; i < 4; ++i) {
      ASSERT_GT(create_until_201(writer.port(), key_, "stranger-" + std::to_string(i)), 0);
    }
  }

  // expect_refused: a service reading from `read_url` never answers with its pets: every pet it
  // acknowledges is found, lists hold only its own; the refusal is logged once and counted.
  void expect_refused(const std::string& read_url, const std::string& reason) {
    ServedPetstore service(
        petstore(serve_args(keys_, serve_flags(primary->url(*database), read_url))));
    ASSERT_NE(service.port(), 0);
    ASSERT_TRUE(wait_for_readiness(service.port(), 200, 30s));
    std::set<std::int64_t> own = listed_ids(service.port(), key_);
    // Reads until the replica has been tried (a replica still connecting is skipped a while).
    for (const auto until = Clock::now() + 15s;
         metric(service.port(), refusals(reason)) < 1 && Clock::now() < until;) {
      EXPECT_EQ(listed_ids(service.port(), key_), own) << "a list answered with other pets";
      std::this_thread::sleep_for(20ms);
    }
    for (int round = 0; round < 20; ++round) {
      const auto id = create_until_201(service.port(), key_, "own-" + std::to_string(round));
      ASSERT_GT(id, 0);
      own.insert(id);
      EXPECT_EQ(http_call(service.port(), "GET", "/v1/pets/" + std::to_string(id), key_).status,
                200U)
          << "pet " << id << ", just acknowledged, was not found";
      EXPECT_EQ(listed_ids(service.port(), key_), own) << "a list answered with other pets";
    }
    EXPECT_GE(metric(service.port(), refusals(reason)), 1);
    EXPECT_EQ(
        metric(service.port(), R"(petstore_storage_reads_total{served_by="replica",reason=""})"),
        0);
    EXPECT_TRUE(service.stop(SIGTERM).exited_with(0)) << service.child().captured_stderr();
    const auto refused =
        log_lines(service.child().captured_stdout(), "event", "database_replica_refused");
    ASSERT_EQ(refused.size(), 1U) << "the refusal was not logged once:\n"
                                  << service.child().captured_stdout();
    EXPECT_EQ(refused.front().at("reason"), reason.c_str());
    EXPECT_EQ(refused.front().at("level"), "error");
  }

  static PostgresServer* primary;
  static PostgresServer* replica;
  static PostgresServer* other_primary;
  static PostgresServer* other_replica;
  static std::string* database;
  static std::string* other_database;
  TempDir dir_;
  std::filesystem::path keys_ = dir_.path() / "keys";
  std::string key_ = make_key(keys_);
};

PostgresServer* PostgresReplicaStrangers::primary = nullptr;
PostgresServer* PostgresReplicaStrangers::replica = nullptr;
PostgresServer* PostgresReplicaStrangers::other_primary = nullptr;
PostgresServer* PostgresReplicaStrangers::other_replica = nullptr;
std::string* PostgresReplicaStrangers::database = nullptr;
std::string* PostgresReplicaStrangers::other_database = nullptr;

TEST_F(PostgresReplicaStrangers, AReadUrlNamingAnotherDatabaseIsRefused) {
  seed(primary->url(*other_database));
  wait_for_replay(*primary, *replica);
  expect_refused(replica->url(*other_database), "other_database");
}

TEST_F(PostgresReplicaStrangers, AStandbyOfAnotherClusterFurtherAlongIsRefused) {
  seed(other_primary->url(*database));
  write_filler(*other_primary);
  wait_for_replay(*other_primary, *other_replica);
  expect_refused(other_replica->url(*database), "other_cluster");
}

// The read URL the docs give lists every node, so the primary is among them: it is no replica,
// which is said once at info. Creates and reads for a while, then a clean stop: no error line.
TEST_F(PostgresReplicaStrangers, TheDocumentedReadUrlAndACleanStopLogNoError) {
  const std::string read_url =
      "postgresql:///" + *database + "?host=" + primary->socket_dir().string() + "," +
      replica->socket_dir().string() + "&user=petstore&target_session_attrs=standby";
  ServedPetstore service(
      petstore(serve_args(keys_, serve_flags(primary->url(*database), read_url))));
  ASSERT_NE(service.port(), 0);
  ASSERT_TRUE(wait_for_readiness(service.port(), 200, 30s));
  const auto until = Clock::now() + 12s;  // past the longest reconnect pause, twice
  for (int n = 0; Clock::now() < until; ++n) {
    const auto id = create_until_201(service.port(), key_, "steady-" + std::to_string(n));
    ASSERT_GT(id, 0);
    EXPECT_EQ(http_call(service.port(), "GET", "/v1/pets/" + std::to_string(id), key_).status,
              200U);
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_GT(
      metric(service.port(), R"(petstore_storage_reads_total{served_by="replica",reason=""})"), 0)
      << "the replica never served";
  EXPECT_TRUE(service.stop(SIGTERM).exited_with(0)) << service.child().captured_stderr();
  const auto out = service.child().captured_stdout();
  EXPECT_TRUE(log_lines(out, "level", "error").empty()) << out;
  const auto not_a_replica = log_lines(out, "event", "database_replica_refused");
  ASSERT_EQ(not_a_replica.size(), 1U) << out;
  EXPECT_EQ(not_a_replica.front().at("reason"), "not_a_replica");
  EXPECT_EQ(not_a_replica.front().at("level"), "info");
}

}  // namespace
}  // namespace petstore::tests
