// What a replica must prove before it serves
// (adapters/storage/postgres/postgres_replica_proof.hpp), without a server: the timeline in a WAL
// file's name, and the judgement of a replica's facts against the primary's history (a primary,
// another cluster, another database, another timeline are each refused with their own reason; only
// the same history in recovery is trusted). And the per-host targets a multi-host URL becomes
// (postgres_target.hpp): each host tried on its own, with connect_timeout read as libpq reads it.

#include "adapters/storage/postgres/postgres_replica_proof.hpp"

#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_target.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

TEST(TimelineOfWalFile, IsTheFirstEightHexDigits) {
  EXPECT_EQ(timeline_of_wal_file("000000010000000000000001"), 1U);
  EXPECT_EQ(timeline_of_wal_file("0000000A00000003000000FF"), 10U);
  EXPECT_EQ(timeline_of_wal_file("FFFFFFFF0000000000000000"), 0xFFFFFFFFU);
  for (const char* name : {"", "00000001", "0000000100000000000000010", "00000000000000000000000A",
                           "0000000G0000000000000001"}) {
    EXPECT_FALSE(timeline_of_wal_file(name).has_value()) << name;
  }
}

ServerHistory primary_history() { return ServerHistory{"7712845932457139873", "16384", 2}; }

ReplicaFacts replica_of(const ServerHistory& history) {
  return ReplicaFacts{true, history, "pets"};
}

TEST(JudgeHistory, TrustsAReplicaInRecoveryOnThePrimarysHistory) {
  const auto judgement = judge_history(replica_of(primary_history()), primary_history());
  EXPECT_FALSE(judgement.refusal.has_value()) << judgement.detail;
}

TEST(JudgeHistory, RefusesEachDifferenceWithItsOwnReason) {
  auto primary_itself = replica_of(primary_history());
  primary_itself.in_recovery = false;
  auto other_cluster = replica_of(primary_history());
  other_cluster.history.system_identifier = "7712845932457139874";
  auto other_database = replica_of(primary_history());
  other_database.history.database_oid = "16390";
  other_database.database_name = "petdb2";
  auto dead_timeline = replica_of(primary_history());
  dead_timeline.history.timeline = 1;
  auto newer_timeline = replica_of(primary_history());
  newer_timeline.history.timeline = 3;
  auto unknown_timeline = replica_of(primary_history());
  unknown_timeline.history.timeline = 0;

  EXPECT_EQ(judge_history(primary_itself, primary_history()).refusal,
            ReplicaRefusal::not_a_replica);
  EXPECT_EQ(judge_history(other_cluster, primary_history()).refusal, ReplicaRefusal::other_cluster);
  const auto database = judge_history(other_database, primary_history());
  EXPECT_EQ(database.refusal, ReplicaRefusal::other_database);
  EXPECT_NE(database.detail.find("petdb2"), std::string::npos) << database.detail;
  const auto dead = judge_history(dead_timeline, primary_history());
  EXPECT_EQ(dead.refusal, ReplicaRefusal::other_timeline);
  EXPECT_NE(dead.detail.find("timeline 1, the primary's is 2"), std::string::npos) << dead.detail;
  EXPECT_EQ(judge_history(newer_timeline, primary_history()).refusal,
            ReplicaRefusal::other_timeline);
  EXPECT_EQ(judge_history(unknown_timeline, primary_history()).refusal,
            ReplicaRefusal::other_timeline);
}

TEST(JudgeHistory, AnotherClusterIsNamedBeforeItsTimeline) {
  auto stranger = replica_of(primary_history());
  stranger.history = ServerHistory{"1", "1", 9};
  EXPECT_EQ(judge_history(stranger, primary_history()).refusal, ReplicaRefusal::other_cluster);
}

TEST(ConnectTargets, AMultiHostUrlIsTriedOneHostAtATime) {
  PostgresOptions options;
  options.database_url =
      "postgresql://app:secret@/pets?host=/run/a,/run/b&port=5432,5433&"
      "target_session_attrs=read-write";
  auto parsed = parse_url(options.database_url);
  ASSERT_TRUE(parsed.has_value());
  const auto target = target_for(options, *parsed);
  ASSERT_EQ(target.host_count(), 2U);
  EXPECT_EQ(target.host_description(0), "app@/run/a:5432/pets");
  EXPECT_EQ(target.host_description(1), "app@/run/b:5433/pets");
  EXPECT_EQ(target.host_timeout, default_host_timeout);
  const auto second = target.params(1);
  // The URL first, then the host's own keywords, which override it.
  std::string host;
  std::string port;
  for (std::size_t i = 0; second.keywords[i] != nullptr; ++i) {
    if (std::string(second.keywords[i]) == "host") {
      host = second.values[i];
    }
    if (std::string(second.keywords[i]) == "port") {
      port = second.values[i];
    }
  }
  EXPECT_EQ(host, "/run/b");
  EXPECT_EQ(port, "5433");
  EXPECT_EQ(target.description.find("secret"), std::string::npos);
}

TEST(ConnectTargets, ConnectTimeoutIsReadAsLibpqReadsIt) {
  PostgresOptions options;
  const auto timeout_of = [&options](const std::string& url) {
    options.database_url = url;
    return target_for(options, parse_url(url).value()).host_timeout;
  };
  EXPECT_EQ(timeout_of("postgresql:///pets?connect_timeout=7"), std::chrono::seconds(7));
  EXPECT_EQ(timeout_of("postgresql:///pets?connect_timeout=1"), std::chrono::seconds(2));
  EXPECT_EQ(timeout_of("postgresql:///pets?connect_timeout=0"), default_host_timeout);
  EXPECT_EQ(timeout_of("postgresql:///pets"), default_host_timeout);
  EXPECT_FALSE(parse_url("postgresql:///pets?connect_timeout=soon").has_value());
}

TEST(ConnectTargets, AReplicaIsReachedWhateverItsUrlsTargetSessionAttrs) {
  PostgresOptions options;
  options.read_url = "postgresql:///pets?host=/run/a,/run/b&target_session_attrs=standby";
  const auto parsed = parse_url(options.read_url, "--database-read-url").value();
  const auto target = replica_target_for(options, parsed, parsed.hosts.at(1));
  ASSERT_EQ(target.host_count(), 1U);
  const auto params = target.params(0);
  std::string attrs;
  for (std::size_t i = 0; params.keywords[i] != nullptr; ++i) {
    if (std::string(params.keywords[i]) == "target_session_attrs") {
      attrs = params.values[i];  // the last one wins, as in libpq
    }
  }
  EXPECT_EQ(attrs, "any");
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
