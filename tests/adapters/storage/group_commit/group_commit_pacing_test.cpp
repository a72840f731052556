// GroupCommitPacing, the "wait for company" rule LMDB's and PostgreSQL's writers share: no wait
// at low load, a wait for as many creates as the last batch held under load, bounded by the last
// commit's time and by max_wait; as properties over any batches, queues and times.

#include "adapters/storage/group_commit/group_commit_pacing.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::adapters::storage::group_commit {
namespace {

using namespace std::chrono_literals;
using Clock = GroupCommitPacing::Clock;

constexpr std::size_t max_batch = 256;
constexpr Clock::duration max_wait = 10ms;
const Clock::time_point since = Clock::time_point{} + 1h;

TEST(GroupCommitPacing, AtFirstNothingWaits) {
  const GroupCommitPacing pacing(max_batch, max_wait);
  EXPECT_EQ(pacing.company(), 1U);
  EXPECT_FALSE(pacing.wait_until(1, since).has_value());
}

TEST(GroupCommitPacing, AfterABatchOfEightAFewWaitForCompanyAsLongAsItsCommitTook) {
  GroupCommitPacing pacing(max_batch, max_wait);
  pacing.committed(8, 2ms);
  EXPECT_EQ(pacing.company(), 8U);
  EXPECT_EQ(pacing.wait_until(1, since), since + 2ms);
  EXPECT_EQ(pacing.wait_until(7, since), since + 2ms);
  EXPECT_FALSE(pacing.wait_until(8, since).has_value());  // company enough: they go
  EXPECT_FALSE(pacing.wait_until(0, since).has_value());  // nobody to wait for
}

TEST(GroupCommitPacing, ASlowCommitMakesTheLongestWaitThereIsNoLonger) {
  GroupCommitPacing pacing(max_batch, max_wait);
  pacing.committed(3, 30ms);
  EXPECT_EQ(pacing.wait_until(1, since), since + max_wait);
}

TEST(GroupCommitPacing, ABatchOfOneEndsTheWaitsAgain) {
  GroupCommitPacing pacing(max_batch, max_wait);
  pacing.committed(8, 2ms);
  pacing.committed(1, 2ms);
  EXPECT_FALSE(pacing.wait_until(1, since).has_value());
}

// Whatever came before, the rule only ever holds creates back as the last batch says.
RC_GTEST_PROP(GroupCommitPacingProperties, WaitsOnlyForCompanyAndNeverPastItsBounds,
              (std::size_t batch_limit, std::size_t last, unsigned took_us, unsigned wait_us,
               std::size_t queued)) {
  const auto limit = batch_limit % 300;  // 0 counts as 1
  const auto took = std::chrono::microseconds(took_us % 50'000);
  const auto bound = std::chrono::microseconds(wait_us % 20'000);
  GroupCommitPacing pacing(limit, bound);
  pacing.committed(last % 400, took);
  const auto company = pacing.company();
  RC_ASSERT(company >= 1U);
  RC_ASSERT(company <= std::max<std::size_t>(1, limit));
  RC_ASSERT(company ==
            std::min(std::max<std::size_t>(1, last % 400), std::max<std::size_t>(1, limit)));
  const auto in_queue = queued % 400;
  const auto until = pacing.wait_until(in_queue, since);
  if (in_queue == 0 || in_queue >= company) {
    RC_ASSERT(!until.has_value());
  }
  if (until) {
    RC_ASSERT(*until > since);
    RC_ASSERT(*until - since == std::min<Clock::duration>(took, bound));
  } else if (in_queue > 0 && in_queue < company) {
    RC_ASSERT(std::min<Clock::duration>(took, bound) == Clock::duration::zero());
  }
}

// A batch of one (low load) is followed by no wait, whatever the batches before it.
RC_GTEST_PROP(GroupCommitPacingProperties, ALoneBatchIsFollowedByNoWait,
              (const std::vector<std::size_t>& batches, std::size_t queued)) {
  GroupCommitPacing pacing(max_batch, max_wait);
  for (const auto size : batches) {
    pacing.committed(size % 300, 5ms);
  }
  pacing.committed(1, 5ms);
  RC_ASSERT(!pacing.wait_until(queued, since).has_value());
}

}  // namespace
}  // namespace petstore::adapters::storage::group_commit
