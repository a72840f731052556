// A create batch whose connection is lost before its COMMIT could happen: its backend is
// terminated while it waits for the counter row, which a session of the test holds. The batch's
// resolution (pg_xact_status on a new connection) learns that its transaction aborted, so the
// create is sent again rather than answered unavailable: it is answered with a pet stored once.

#include <chrono>
#include <cstdint>
#include <libpq-fe.h>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_hooks.hpp"
#include "support/postgres_probe.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

TEST(PostgresCommitNotDone, ABatchWhoseTransactionAbortedIsSentAgainAndStoredOnce) {
  const std::string database = shared_postgres_server().create_database();
  std::mutex mutex;
  std::vector<std::string> resolved;
  adapters::storage::postgres::PostgresOptions options;
  options.database_url = shared_postgres_server().url(database);
  auto hooks = std::make_shared<PostgresHooks>();
  hooks->on_resolved = [&](std::string_view outcome) {
    const std::lock_guard lock(mutex);
    resolved.emplace_back(outcome);
  };
  options.observer = hooks;
  const auto repository =
      adapters::storage::postgres::make_postgres_pet_repository(options).value();
  ASSERT_TRUE(create_pet(*repository, new_pet("First")).has_value());

  const adapters::storage::postgres::ConnPtr locker(
      PQconnectdb(shared_postgres_server().url(database).c_str()));
  ASSERT_EQ(PQstatus(locker.get()), CONNECTION_OK);
  // Another session watches: pg_stat_activity stays as first read within a transaction.
  const adapters::storage::postgres::ConnPtr watcher(
      PQconnectdb(shared_postgres_server().url(database).c_str()));
  ASSERT_EQ(PQstatus(watcher.get()), CONNECTION_OK);
  (void)first_value(locker.get(), "BEGIN");
  (void)first_value(locker.get(), "SELECT next_id FROM petstore.id_counter FOR UPDATE");

  domain::Result<ports::CreateOutcome> answer =
      domain::make_error(domain::ErrorCode::internal, "", "unanswered");
  const ports::IdempotencyKey key{"scope", "aborted"};
  std::thread create([&] { answer = create_now(*repository, {new_pet("Again"), key, test_now}); });
  // The batch's backend, waiting for the counter row.
  const std::string pid = waiting_backend(watcher.get(), "wait_event_type = 'Lock'", 10s);
  if (pid.empty()) {
    const std::string activity = first_value(
        watcher.get(),
        "SELECT string_agg(coalesce(wait_event_type, '-') || ' ' || state || ' ' || query, E'\\n') "
        "FROM pg_stat_activity WHERE datname = current_database()");
    (void)first_value(locker.get(), "COMMIT");
    create.join();
    FAIL() << "the batch never waited for the counter row:\n" << activity;
  }
  (void)first_value(watcher.get(), "SELECT pg_terminate_backend(" + pid + ")");
  const auto is_resolved = [&] {
    const std::lock_guard lock(mutex);
    return !resolved.empty();
  };
  for (const auto until = std::chrono::steady_clock::now() + 5s;
       !is_resolved() && std::chrono::steady_clock::now() < until;) {
    std::this_thread::sleep_for(10ms);
  }
  (void)first_value(locker.get(), "COMMIT");  // the create sent again takes the counter row now
  create.join();

  {
    const std::lock_guard lock(mutex);
    EXPECT_EQ(resolved, std::vector<std::string>{"not_committed"});
  }
  ASSERT_TRUE(answer.has_value()) << answer.error().message << " (" << answer.error().detail << ")";
  EXPECT_TRUE(answer->created);
  EXPECT_EQ(answer->pet.id, domain::PetId{2});
  EXPECT_EQ(first_value(locker.get(), "SELECT count(*) FROM petstore.pets WHERE name = 'Again'"),
            "1");
}

}  // namespace
}  // namespace petstore::tests
