// ports::Completion (a ports::Callback with a deadline): exactly once by construction (called, or
// dropped uncalled: unavailable), move-only, small continuations kept inline, the deadline kept.

#include "ports/completion.hpp"

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using ports::Completion;
using Clock = std::chrono::steady_clock;

// Heard: every answer a continuation got, and whether it was destroyed.
struct Heard {
  int calls = 0;
  std::optional<domain::Result<int>> last;
};

Completion<int> listening(Heard& heard, ports::Deadline deadline = ports::no_deadline) {
  return {[&heard](domain::Result<int> result) {
            ++heard.calls;
            heard.last = std::move(result);
          },
          deadline};
}

TEST(Completion, ACallReachesTheContinuationOnceAndEmptiesIt) {
  Heard heard;
  auto done = listening(heard);
  ASSERT_TRUE(static_cast<bool>(done));
  done(7);
  EXPECT_FALSE(static_cast<bool>(done));
  EXPECT_EQ(heard.calls, 1);
  EXPECT_EQ(heard.last->value(), 7);
}

TEST(Completion, DroppedUncalledItAnswersUnavailable) {
  Heard heard;
  { auto done = listening(heard); }
  EXPECT_EQ(heard.calls, 1);
  ASSERT_FALSE(heard.last->has_value());
  EXPECT_EQ(heard.last->error().code, domain::ErrorCode::unavailable);
}

TEST(Completion, AMovedFromCompletionAnswersNothing) {
  Heard heard;
  std::optional<Completion<int>> moved;
  {
    auto done = listening(heard);
    moved.emplace(std::move(done));
  }  // `done`, moved from, goes here without a word
  EXPECT_EQ(heard.calls, 0);
  (*moved)(1);
  EXPECT_EQ(heard.calls, 1);
}

TEST(Completion, AssigningOverAnUncalledOneAnswersItUnavailable) {
  Heard first;
  Heard second;
  auto done = listening(first);
  done = listening(second);
  EXPECT_EQ(first.calls, 1);
  EXPECT_FALSE(first.last->has_value());
  done(2);
  EXPECT_EQ(second.calls, 1);
}

TEST(Completion, ALargeContinuationWorksAsASmallOne) {
  Heard heard;
  std::array<char, 256> ballast{};
  ballast[0] = 'x';
  Completion<int> done([&heard, ballast](domain::Result<int> result) {
    heard.calls += ballast[0] == 'x' ? 1 : 100;
    heard.last = std::move(result);
  });
  auto moved = std::move(done);
  moved(3);
  EXPECT_EQ(heard.calls, 1);
}

TEST(Completion, AMoveOnlyContinuationIsAccepted) {
  Heard heard;
  auto owned = std::make_unique<int>(5);
  Completion<int> done([&heard, owned = std::move(owned)](domain::Result<int> result) {
    heard.calls += *owned;
    heard.last = std::move(result);
  });
  done(0);
  EXPECT_EQ(heard.calls, 5);
}

TEST(Completion, TheDeadlineTravelsWithTheCompletion) {
  Heard heard;
  const auto deadline = Clock::now() + std::chrono::seconds(3);
  auto first = listening(heard, deadline);
  Completion<int> moved = std::move(first);
  EXPECT_EQ(moved.deadline(), deadline);
  EXPECT_FALSE(moved.expired(Clock::now()));
  EXPECT_TRUE(moved.expired(deadline));
  moved(4);
  EXPECT_EQ(heard.last->value(), 4);
}

TEST(Completion, TargetsUpToItsInlineSizeLiveInsideLargerOnesApart) {
  using Done = Completion<int>;
  struct Fits {
    std::array<char, ports::completion_inline_bytes> bytes;
    void operator()(const domain::Result<int>& /*result*/) const {}
  };
  struct TooLarge {
    std::array<char, ports::completion_inline_bytes + 1> bytes;
    void operator()(const domain::Result<int>& /*result*/) const {}
  };
  struct OverAligned {
    alignas(2 * alignof(void*)) char byte;
    void operator()(const domain::Result<int>& /*result*/) const {}
  };
  EXPECT_TRUE(Done::fits_inline<Fits>());
  EXPECT_FALSE(Done::fits_inline<TooLarge>());
  EXPECT_FALSE(Done::fits_inline<OverAligned>());
  // The inline bytes, the callback's one pointer, the deadline and the trace context.
  EXPECT_EQ(sizeof(Done), ports::completion_inline_bytes + sizeof(void*) + sizeof(ports::Deadline) +
                              sizeof(ports::TraceContext));
}

TEST(Completion, WithoutADeadlineItNeverExpires) {
  Heard heard;
  auto done = listening(heard);
  EXPECT_EQ(done.deadline(), ports::no_deadline);
  EXPECT_FALSE(done.expired(Clock::now() + std::chrono::hours(24 * 365)));
  done(0);
}

}  // namespace
}  // namespace petstore::tests
