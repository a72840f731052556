// A pool's health (adapters/storage/postgres/postgres_pool.hpp), without a server: it is
// available only with a connection open, the schema ready, the last probe answered and not
// closing, and says so once per change; one probe is out at a time, the next due probe_interval
// after an answer, none while the pool does not serve. As a property: over any sequence of
// events, what it reports is the model's availability, reported exactly when that changes.

#include <chrono>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "adapters/storage/postgres/postgres_pool.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using Clock = PoolHealth::Clock;
using std::chrono::milliseconds;

TEST(PoolHealth, ItIsAvailableOnlyWithAConnectionOpenAndTheSchemaReady) {
  PoolHealth health;
  EXPECT_EQ(health.change(false, true, false), std::nullopt);  // unavailable, as first reported
  EXPECT_EQ(health.change(true, false, false), std::nullopt);
  EXPECT_EQ(health.change(true, true, false), std::optional<bool>(true));
  EXPECT_EQ(health.change(true, true, false), std::nullopt);               // said once
  EXPECT_EQ(health.change(true, true, true), std::optional<bool>(false));  // closing
}

TEST(PoolHealth, AnUnansweredProbeMakesItUnavailableUntilTheDatabaseAnswersAgain) {
  PoolHealth health;
  const auto now = Clock::now();
  ASSERT_EQ(health.change(true, true, false), std::optional<bool>(true));
  ASSERT_TRUE(health.take_probe(now, true));
  health.probe_answered(false, now + milliseconds(2000));
  EXPECT_EQ(health.change(true, true, false), std::optional<bool>(false));
  health.connected();  // a connection's set-up was answered
  EXPECT_EQ(health.change(true, true, false), std::optional<bool>(true));
  ASSERT_TRUE(health.take_probe(now + milliseconds(3000), true));
  health.probe_answered(false, now + milliseconds(3000));
  ASSERT_EQ(health.change(true, true, false), std::optional<bool>(false));
  ASSERT_TRUE(health.take_probe(now + milliseconds(4000), true));
  health.probe_answered(true, now + milliseconds(4000));
  EXPECT_EQ(health.change(true, true, false), std::optional<bool>(true));
}

TEST(PoolHealth, OneProbeIsOutAtATimeAndTheNextIsDueAnIntervalAfterItsAnswer) {
  PoolHealth health;
  const auto now = Clock::now();
  EXPECT_FALSE(health.take_probe(now, false));  // a pool that does not serve is not probed
  ASSERT_TRUE(health.take_probe(now, true));
  EXPECT_FALSE(health.take_probe(now + milliseconds(5000), true));  // still out
  const auto answered = now + milliseconds(300);
  health.probe_answered(true, answered);
  EXPECT_FALSE(health.take_probe(answered + PoolHealth::probe_interval - milliseconds(1), true));
  EXPECT_TRUE(health.take_probe(answered + PoolHealth::probe_interval, true));
}

// Event: one thing that happens to a pool, as its health hears it.
enum class Event {
  connected,
  probe_answered,
  probe_unanswered,
  connection_opens,
  connections_gone,
  schema_ready,
  closing
};

RC_GTEST_PROP(PoolHealthProperties, ItReportsTheModelsAvailabilityExactlyWhenThatChanges, ()) {
  const auto events = *rc::gen::container<std::vector<Event>>(rc::gen::element(
      Event::connected, Event::probe_answered, Event::probe_unanswered, Event::connection_opens,
      Event::connections_gone, Event::schema_ready, Event::closing));
  PoolHealth health;
  bool open = false;
  bool schema_ready = false;
  bool closing = false;
  bool answering = true;
  bool reported = false;
  auto now = Clock::now();
  for (const Event event : events) {
    now += milliseconds(500);
    switch (event) {
      case Event::connected:
        health.connected();
        answering = true;
        break;
      case Event::probe_answered:
      case Event::probe_unanswered:
        if (health.take_probe(now, true)) {
          const bool answered = event == Event::probe_answered;
          health.probe_answered(answered, now);
          answering = answered;
        }
        break;
      case Event::connection_opens:
        open = true;
        break;
      case Event::connections_gone:
        open = false;
        break;
      case Event::schema_ready:
        schema_ready = true;
        break;
      case Event::closing:
        closing = true;
        break;
    }
    const bool available = open && schema_ready && answering && !closing;
    const auto change = health.change(open, schema_ready, closing);
    RC_ASSERT(change.has_value() == (available != reported));
    if (change) {
      RC_ASSERT(*change == available);
    }
    reported = available;
  }
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
