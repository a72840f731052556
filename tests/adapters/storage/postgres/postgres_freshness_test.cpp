// The freshness rule of reads from replicas (adapters/storage/postgres/postgres_freshness.hpp),
// without a server: pg_lsn's text, the verdict on a replica's replay position, and the batching
// of position queries, in particular that a read never joins a query already sent.

#include "adapters/storage/postgres/postgres_freshness.hpp"

#include <gtest/gtest.h>

namespace petstore::adapters::storage::postgres {
namespace {

TEST(ParseLsn, ReadsBothHalvesInHex) {
  EXPECT_EQ(parse_lsn("0/0"), Lsn{0});
  EXPECT_EQ(parse_lsn("16/B374D848"), (Lsn{0x16} << 32U) | 0xB374D848U);
  EXPECT_EQ(parse_lsn("FFFFFFFF/FFFFFFFF"), ~Lsn{0});
  EXPECT_EQ(parse_lsn("0/1a"), Lsn{0x1a});
}

TEST(ParseLsn, RefusesAnythingElse) {
  for (const char* text :
       {"", "/", "0/", "/0", "1", "0/0/0", "0x1/0", "-1/0", "1/123456789", "g/0", "0 /0"}) {
    EXPECT_FALSE(parse_lsn(text).has_value()) << text;
  }
}

TEST(JudgeReplica, FreshOnlyOnceReplayedReachesTheRequiredPosition) {
  EXPECT_EQ(judge_replica(Lsn{100}, Lsn{100}), ReplicaVerdict::fresh);
  EXPECT_EQ(judge_replica(Lsn{101}, Lsn{100}), ReplicaVerdict::fresh);
  EXPECT_EQ(judge_replica(Lsn{99}, Lsn{100}), ReplicaVerdict::lagging);
  // No replay position: a server not in recovery, which cannot vouch for the primary's commits.
  EXPECT_EQ(judge_replica(std::nullopt, Lsn{0}), ReplicaVerdict::not_standby);
}

TEST(PositionBatches, TheFirstReadSendsAQueryOfItsOwn) {
  PositionBatches<int> batches;
  EXPECT_TRUE(batches.join(1));
  const auto answered = batches.answered();
  EXPECT_EQ(answered.waiters, std::vector<int>{1});
  EXPECT_FALSE(answered.send_next);
  EXPECT_EQ(batches.queries(), 1U);
}

TEST(PositionBatches, AReadNeverJoinsAQueryAlreadySent) {
  PositionBatches<int> batches;
  ASSERT_TRUE(batches.join(1));  // query A is out
  // Reads 2 and 3 start while A is in flight: A may have been answered before they started.
  EXPECT_FALSE(batches.join(2));
  EXPECT_FALSE(batches.join(3));
  auto first = batches.answered();
  EXPECT_EQ(first.waiters, std::vector<int>{1});  // A serves read 1 alone
  EXPECT_TRUE(first.send_next);                   // query B, sent now, after 2 and 3 started
  EXPECT_FALSE(batches.join(4));                  // B is out: 4 waits for C
  auto second = batches.answered();
  EXPECT_EQ(second.waiters, (std::vector<int>{2, 3}));
  EXPECT_TRUE(second.send_next);
  auto third = batches.answered();
  EXPECT_EQ(third.waiters, std::vector<int>{4});
  EXPECT_FALSE(third.send_next);
  EXPECT_EQ(batches.queries(), 3U);
  EXPECT_EQ(batches.joined(), 4U);
  EXPECT_TRUE(batches.join(5));  // nothing in flight again: a query of its own
}

TEST(PositionBatches, ManyConcurrentReadsShareOneQuery) {
  PositionBatches<int> batches;
  ASSERT_TRUE(batches.join(0));
  for (int read = 1; read <= 100; ++read) {
    EXPECT_FALSE(batches.join(read));
  }
  (void)batches.answered();
  EXPECT_EQ(batches.answered().waiters.size(), 100U);
  EXPECT_EQ(batches.queries(), 2U);  // 101 reads, 2 queries
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
