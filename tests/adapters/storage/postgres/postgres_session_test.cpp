// BlockingSession, without a server: the schema's check and migration (and every other blocking
// step) refuse to run on a poll loop's thread, whose every connection would wait with it; off
// the loops the same call goes on to the database (here a port nobody listens on).

#include "adapters/storage/postgres/postgres_session.hpp"

#include <chrono>
#include <future>
#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_schema.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using namespace std::chrono_literals;

// nobody_listens: a target whose connect is refused at once (port 1 on the loopback).
ConnectTarget nobody_listens() {
  ConnectTarget target;
  target.keywords = {"host", "port", "dbname", "connect_timeout"};
  target.values = {"127.0.0.1", "1", "petstore", "2"};
  target.timeout = 2000ms;
  return target;
}

TEST(PostgresBlockingSession, TheSchemaCheckRefusesToRunOnAPollLoopsThread) {
  const auto target = nobody_listens();
  std::promise<domain::Result<void>> checked;
  EventLoop loop;
  loop.start();
  loop.post(
      [&] { checked.set_value(migrate_schema(target, std::chrono::steady_clock::now() + 2s)); });
  const auto result = checked.get_future().get();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, domain::ErrorCode::internal);
  EXPECT_NE(result.error().message.find("poll loop"), std::string::npos) << result.error().message;
}

TEST(PostgresBlockingSession, OffTheLoopsTheSchemaCheckGoesToTheDatabase) {
  ASSERT_FALSE(EventLoop::on_loop_thread());
  const auto result = migrate_schema(nobody_listens(), std::chrono::steady_clock::now() + 2s);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, domain::ErrorCode::unavailable) << result.error().message;
  EXPECT_NE(result.error().message.find("cannot connect"), std::string::npos)
      << result.error().message;
}

TEST(PostgresBlockingSession, ALoopsThreadKnowsItself) {
  std::promise<bool> on_loop;
  EventLoop loop;
  loop.start();
  loop.post([&] { on_loop.set_value(EventLoop::on_loop_thread()); });
  EXPECT_TRUE(on_loop.get_future().get());
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
