// RepeatedFailures on its own: which failures of a retried source are worth a log line.

#include "bootstrap/repeated_failures.hpp"

#include <chrono>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace petstore::bootstrap {
namespace {

using namespace std::chrono_literals;
using Clock = RepeatedFailures::Clock;

const Clock::time_point start{};

TEST(RepeatedFailures, TheFirstFailureIsWrittenAndItsRepeatsCounted) {
  RepeatedFailures failures(60s);
  EXPECT_EQ(failures.failed("db1", "refused", start), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.failed("db1", "refused", start + 1s), std::nullopt);
  EXPECT_EQ(failures.failed("db1", "refused", start + 2s), std::nullopt);
  // A minute after the line, the same failure is written again with the two it kept quiet.
  EXPECT_EQ(failures.failed("db1", "refused", start + 60s), std::optional<std::int64_t>(2));
  EXPECT_EQ(failures.failed("db1", "refused", start + 61s), std::nullopt);
}

// Two messages that take turns (two kinds of connection to one host) are each written once.
TEST(RepeatedFailures, EachMessageIsWrittenOnceAndCountedApart) {
  RepeatedFailures failures(60s);
  EXPECT_EQ(failures.failed("db1", "refused", start), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.failed("db1", "timed out", start + 1s), std::optional<std::int64_t>(0));
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(failures.failed("db1", "refused", start + 2s), std::nullopt);
    EXPECT_EQ(failures.failed("db1", "timed out", start + 2s), std::nullopt);
  }
  EXPECT_EQ(failures.failed("db1", "refused", start + 60s), std::optional<std::int64_t>(3));
  EXPECT_EQ(failures.failed("db1", "timed out", start + 61s), std::optional<std::int64_t>(3));
}

// A message that changes at every attempt is written at every attempt, and kept to a few.
TEST(RepeatedFailures, AMessageThatAlwaysChangesIsAlwaysWritten) {
  RepeatedFailures failures(60s);
  for (int attempt = 0; attempt < 100; ++attempt) {
    EXPECT_EQ(failures.failed("db1", "took " + std::to_string(attempt) + " ms", start),
              std::optional<std::int64_t>(0));
  }
  EXPECT_EQ(failures.succeeded("db1"), std::optional<std::int64_t>(0));
}

TEST(RepeatedFailures, EachSourceHasItsOwnLines) {
  RepeatedFailures failures(60s);
  EXPECT_EQ(failures.failed("db1", "refused", start), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.failed("db2", "refused", start), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.failed("db2", "refused", start + 1s), std::nullopt);
}

TEST(RepeatedFailures, ASuccessForgetsTheSourceAndSaysWhetherItWasFailing) {
  RepeatedFailures failures(60s);
  EXPECT_EQ(failures.succeeded("db1"), std::nullopt);
  (void)failures.failed("db1", "refused", start);
  EXPECT_EQ(failures.succeeded("db1"), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.succeeded("db1"), std::nullopt);
  EXPECT_EQ(failures.failed("db1", "refused", start + 1s), std::optional<std::int64_t>(0));
}

// The repeats kept quiet since each message's last line, of every message, go with the recovery;
// those already written with a line do not.
TEST(RepeatedFailures, ASuccessReportsTheRepeatsNeverWritten) {
  RepeatedFailures failures(60s);
  (void)failures.failed("db1", "refused", start);
  (void)failures.failed("db1", "timed out", start);
  for (int attempt = 1; attempt <= 3; ++attempt) {
    EXPECT_EQ(failures.failed("db1", "refused", start + std::chrono::seconds(attempt)),
              std::nullopt);
  }
  EXPECT_EQ(failures.failed("db1", "timed out", start + 1s), std::nullopt);
  // The minute's line carries the three refusals; two more follow it, unwritten.
  EXPECT_EQ(failures.failed("db1", "refused", start + 60s), std::optional<std::int64_t>(3));
  EXPECT_EQ(failures.failed("db1", "refused", start + 61s), std::nullopt);
  EXPECT_EQ(failures.failed("db1", "refused", start + 62s), std::nullopt);
  (void)failures.failed("db2", "refused", start);
  (void)failures.failed("db2", "refused", start + 1s);
  EXPECT_EQ(failures.succeeded("db1"), std::optional<std::int64_t>(3));  // two refusals, a timeout
  EXPECT_EQ(failures.succeeded("db2"), std::optional<std::int64_t>(1));
}

// A message forgotten to make room for newer ones (a source keeps eight) takes its unwritten
// repeats into the recovery's count all the same.
TEST(RepeatedFailures, RepeatsOfAForgottenMessageStillCountAtTheRecovery) {
  RepeatedFailures failures(60s);
  (void)failures.failed("db1", "refused", start);
  EXPECT_EQ(failures.failed("db1", "refused", start + 1s), std::nullopt);
  EXPECT_EQ(failures.failed("db1", "refused", start + 2s), std::nullopt);
  for (int attempt = 0; attempt < 8; ++attempt) {  // "refused" is the oldest, and goes
    EXPECT_EQ(failures.failed("db1", "took " + std::to_string(attempt) + " ms", start + 3s),
              std::optional<std::int64_t>(0));
  }
  EXPECT_EQ(failures.failed("db1", "refused", start + 4s), std::optional<std::int64_t>(0));
  EXPECT_EQ(failures.succeeded("db1"), std::optional<std::int64_t>(2));
}

}  // namespace
}  // namespace petstore::bootstrap
