// The freshness rule of reads from replicas (adapters/storage/postgres/postgres_freshness.hpp),
// without a server: pg_lsn's text, the verdict on a replica's replay position, and the batching
// of position queries: a read never joins a query already sent, and the gathering rule (enough
// reads, the window since the previous query, a waiter's deadline) decides when the next goes.
// The same rule as properties over random timings: postgres_freshness_properties_test.cpp.

#include "adapters/storage/postgres/postgres_freshness.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

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

TEST(FormatLsn, WritesPostgresText) {
  EXPECT_EQ(format_lsn(0), "0/0");
  EXPECT_EQ(format_lsn((Lsn{0x16} << 32U) | 0xB374D848U), "16/B374D848");
  EXPECT_EQ(format_lsn(~Lsn{0}), "FFFFFFFF/FFFFFFFF");
}

RC_GTEST_PROP(FormatLsn, ParseLsnReadsBackWhatItWrites, (std::uint64_t lsn)) {
  RC_ASSERT(parse_lsn(format_lsn(lsn)) == std::optional<Lsn>(lsn));
}

TEST(JudgeReplica, FreshOnlyOnceReplayedReachesTheRequiredPosition) {
  EXPECT_EQ(judge_replica(Lsn{100}, Lsn{100}), ReplicaVerdict::fresh);
  EXPECT_EQ(judge_replica(Lsn{101}, Lsn{100}), ReplicaVerdict::fresh);
  EXPECT_EQ(judge_replica(Lsn{99}, Lsn{100}), ReplicaVerdict::lagging);
  // No replay position: a server not in recovery, which cannot vouch for the primary's commits.
  EXPECT_EQ(judge_replica(std::nullopt, Lsn{0}), ReplicaVerdict::not_standby);
}

using TimePoint = PositionBatches<int>::TimePoint;
using std::chrono::microseconds;
constexpr auto never = TimePoint::max();  // a read without a deadline
const TimePoint start = TimePoint{} + std::chrono::hours(1);

TEST(PositionBatches, TheFirstReadSendsAQueryOfItsOwn) {
  PositionBatches<int> batches;
  EXPECT_TRUE(batches.join(1, start, never));
  const auto answered = batches.answered(start);
  EXPECT_EQ(answered.waiters, std::vector<int>{1});
  EXPECT_FALSE(answered.send_next);  // one query in all
}

TEST(PositionBatches, AReadNeverJoinsAQueryAlreadySent) {
  PositionBatches<int> batches;
  ASSERT_TRUE(batches.join(1, start, never));  // query A is out
  // Reads 2 and 3 start while A is in flight: A may have been answered before they started.
  EXPECT_FALSE(batches.join(2, start, never));
  EXPECT_FALSE(batches.join(3, start, never));
  EXPECT_FALSE(batches.send_at().has_value());  // A's answer decides, no timer
  auto first = batches.answered(start);
  EXPECT_EQ(first.waiters, std::vector<int>{1});  // A serves read 1 alone
  EXPECT_TRUE(first.send_next);                   // query B, sent now, after 2 and 3 started
  EXPECT_FALSE(batches.join(4, start, never));    // B is out: 4 waits for C
  auto second = batches.answered(start);
  EXPECT_EQ(second.waiters, (std::vector<int>{2, 3}));
  EXPECT_TRUE(second.send_next);
  auto third = batches.answered(start);
  EXPECT_EQ(third.waiters, std::vector<int>{4});
  EXPECT_FALSE(third.send_next);               // 4 reads, 3 queries
  EXPECT_TRUE(batches.join(5, start, never));  // nothing in flight again: a query of its own
}

TEST(PositionBatches, ManyConcurrentReadsShareOneQuery) {
  PositionBatches<int> batches;
  ASSERT_TRUE(batches.join(0, start, never));
  for (int read = 1; read <= 100; ++read) {
    EXPECT_FALSE(batches.join(read, start, never));
  }
  EXPECT_TRUE(batches.answered(start).send_next);
  const auto second = batches.answered(start);
  EXPECT_EQ(second.waiters.size(), 100U);
  EXPECT_FALSE(second.send_next);  // 101 reads, 2 queries
}

// The gathering rule: 4 reads are enough, and the window is 500 us.
const GatherRule rule{4, microseconds(500)};

TEST(PositionBatchesGathering, AReadAfterAQuietSpellGoesAtOnce) {
  PositionBatches<int> batches(rule);
  EXPECT_TRUE(batches.join(1, start, never));
  (void)batches.answered(start + microseconds(100));
  EXPECT_TRUE(batches.join(2, start + microseconds(500), never));  // a window since the last
}

TEST(PositionBatchesGathering, ReadsGatherUntilEnoughWait) {
  PositionBatches<int> batches(rule);
  ASSERT_TRUE(batches.join(0, start, never));
  const auto answered = batches.answered(start + microseconds(100));
  EXPECT_FALSE(answered.send_next);  // nobody waits
  EXPECT_FALSE(batches.join(1, start + microseconds(110), never));
  EXPECT_EQ(batches.send_at(), start + microseconds(500));  // the timer's turn, at the latest
  EXPECT_FALSE(batches.due(start + microseconds(120)));
  EXPECT_FALSE(batches.join(2, start + microseconds(130), never));
  EXPECT_FALSE(batches.join(3, start + microseconds(140), never));
  EXPECT_TRUE(batches.join(4, start + microseconds(150), never));  // the fourth: it goes now
  EXPECT_FALSE(batches.send_at().has_value());
  const auto second = batches.answered(start + microseconds(300));
  EXPECT_EQ(second.waiters, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_FALSE(second.send_next);  // 5 reads, 2 queries
}

TEST(PositionBatchesGathering, EnoughReadsGatheredInFlightGoWithItsAnswer) {
  PositionBatches<int> batches(rule);
  ASSERT_TRUE(batches.join(0, start, never));
  for (int read = 1; read <= 4; ++read) {
    EXPECT_FALSE(batches.join(read, start + microseconds(10), never));
  }
  EXPECT_TRUE(batches.answered(start + microseconds(100)).send_next);
}

TEST(PositionBatchesGathering, TheWindowSendsFewerThanEnough) {
  PositionBatches<int> batches(rule);
  ASSERT_TRUE(batches.join(0, start, never));
  EXPECT_FALSE(batches.join(1, start + microseconds(50), never));
  // Answered within the window: read 1 waits for the timer, at the window's end.
  EXPECT_FALSE(batches.answered(start + microseconds(200)).send_next);
  EXPECT_FALSE(batches.due(start + microseconds(499)));
  EXPECT_TRUE(batches.due(start + microseconds(500)));
  // Answered after the window: whatever waits goes with the answer.
  EXPECT_FALSE(batches.join(2, start + microseconds(600), never));
  EXPECT_FALSE(batches.send_at().has_value());
  const auto late = batches.answered(start + microseconds(1100));
  EXPECT_EQ(late.waiters, std::vector<int>{1});
  EXPECT_TRUE(late.send_next);
  EXPECT_EQ(batches.answered(start + microseconds(1200)).waiters, std::vector<int>{2});
}

TEST(PositionBatchesGathering, NoReadIsHeldPastItsDeadline) {
  PositionBatches<int> batches(rule);
  ASSERT_TRUE(batches.join(0, start, never));
  (void)batches.answered(start + microseconds(10));
  EXPECT_FALSE(batches.join(1, start + microseconds(20), never));
  EXPECT_FALSE(batches.join(2, start + microseconds(30), start + microseconds(200)));
  EXPECT_EQ(batches.send_at(), start + microseconds(200));
  EXPECT_TRUE(batches.due(start + microseconds(200)));
  (void)batches.answered(start + microseconds(250));
  // A read whose deadline has passed is not held at all; the next batch has no deadline again.
  EXPECT_TRUE(batches.join(3, start + microseconds(260), start));
  (void)batches.answered(start + microseconds(270));
  EXPECT_FALSE(batches.join(4, start + microseconds(280), never));
  EXPECT_EQ(batches.send_at(), start + microseconds(760));  // 260 + the window
}

TEST(PositionBatchesGathering, TheEndOfTimeSendsWhateverGathers) {
  // A closing owner passes TimePoint::max(): the window's sum saturates, nothing waits.
  PositionBatches<int> batches(rule);
  ASSERT_TRUE(batches.join(0, never, never));
  EXPECT_FALSE(batches.join(1, never, never));
  const auto answered = batches.answered(never);
  EXPECT_TRUE(answered.send_next);
  EXPECT_TRUE(batches.answered(never).waiters == std::vector<int>{1});
  EXPECT_TRUE(batches.join(2, never, never));
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
