// A create batch whose backend is terminated, or whose statement is cancelled, while its flush
// barrier's COMMIT waits for a synchronous standby (as a fast shutdown of the primary, an operator
// or a statement_timeout does): the commit is written on the primary only, so pg_xact_status says
// "committed", yet a failover would lose the pet. Its resolution must not
// answer 201 until the standbys have it: with no standby answering before the deadline, the create
// is answered unavailable; a retry with its key, once the standbys are back, returns the one pet.

#include <chrono>
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
using adapters::storage::postgres::ConnPtr;

// set_standbys: synchronous_standby_names on the whole server, waited for until a new session
// sees it (the reload reaches backends asynchronously).
void set_standbys(const PostgresServer& server, const std::string& database,
                  const std::string& names) {
  const ConnPtr admin(PQconnectdb(server.url(database).c_str()));
  ASSERT_EQ(PQstatus(admin.get()), CONNECTION_OK);
  (void)first_value(admin.get(), "ALTER SYSTEM SET synchronous_standby_names = '" + names + "'");
  (void)first_value(admin.get(), "SELECT pg_reload_conf()");
  for (const auto until = std::chrono::steady_clock::now() + 10s;
       std::chrono::steady_clock::now() < until;) {
    const ConnPtr probe(PQconnectdb(server.url(database).c_str()));
    if (first_value(probe.get(), "SHOW synchronous_standby_names") == names) {
      return;
    }
    std::this_thread::sleep_for(20ms);
  }
  FAIL() << "synchronous_standby_names never became '" << names << "'";
}

// How the wait for the standby is cut short: the backend terminated (a fast shutdown does that to
// every backend), or its statement cancelled (an operator's pg_cancel_backend, a statement_timeout
// on the role), after which PostgreSQL warns and answers the COMMIT as if it had succeeded.
class PostgresCommitNotReplicated : public testing::TestWithParam<const char*> {};

INSTANTIATE_TEST_SUITE_P(CutShortBy, PostgresCommitNotReplicated,
                         testing::Values("pg_terminate_backend", "pg_cancel_backend"),
                         [](const testing::TestParamInfo<const char*>& cut) {
                           return std::string(cut.param).substr(3);  // without "pg_"
                         });

TEST_P(PostgresCommitNotReplicated, ACommitOnThePrimaryOnlyIsNotAcknowledgedByItsResolution) {
  PostgresServer server;  // its own: the standby setting is the whole server's
  const std::string database = server.create_database();
  std::mutex mutex;
  std::vector<std::string> resolved;
  adapters::storage::postgres::PostgresOptions options;
  options.database_url = server.url(database);
  options.call_timeout = 3000ms;
  auto hooks = std::make_shared<PostgresHooks>();
  hooks->on_resolved = [&](std::string_view outcome) {
    const std::lock_guard lock(mutex);
    resolved.emplace_back(outcome);
  };
  options.observer = hooks;
  const auto repository =
      adapters::storage::postgres::make_postgres_pet_repository(options).value();
  ASSERT_TRUE(create_pet(*repository, new_pet("First")).has_value());

  // A standby that never connects: every synchronous COMMIT waits for it.
  set_standbys(server, database, "absent_standby");
  const ConnPtr watcher(PQconnectdb(server.url(database).c_str()));
  ASSERT_EQ(PQstatus(watcher.get()), CONNECTION_OK);
  domain::Result<ports::CreateOutcome> answer =
      domain::make_error(domain::ErrorCode::internal, "", "unanswered");
  const ports::IdempotencyKey key{"scope", "on-the-primary-only"};
  std::thread create([&] { answer = create_now(*repository, {new_pet("Local"), key, test_now}); });
  const std::string pid = waiting_backend(watcher.get(), "wait_event = 'SyncRep'", 10s);
  ASSERT_FALSE(pid.empty()) << "the batch's COMMIT never waited for a standby";
  (void)first_value(watcher.get(), std::string("SELECT ") + GetParam() + "(" + pid + ")");
  create.join();

  ASSERT_FALSE(answer.has_value()) << "a pet on the primary only was acknowledged";
  EXPECT_EQ(answer.error().code, domain::ErrorCode::unavailable) << answer.error().message;
  {
    const std::lock_guard lock(mutex);
    EXPECT_EQ(resolved, std::vector<std::string>{"unknown"});
  }
  EXPECT_EQ(first_value(watcher.get(), "SELECT count(*) FROM petstore.pets WHERE name = 'Local'"),
            "1");  // committed locally, as pg_xact_status said

  // The standbys back (none required): the retry with the key answers with that one pet.
  set_standbys(server, database, "");
  const auto retried = create_now(*repository, {new_pet("Local"), key, test_now});
  ASSERT_TRUE(retried.has_value()) << retried.error().message;
  EXPECT_FALSE(retried->created);
  EXPECT_EQ(retried->pet.id, domain::PetId{2});
  EXPECT_EQ(first_value(watcher.get(), "SELECT count(*) FROM petstore.pets WHERE name = 'Local'"),
            "1");
}

}  // namespace
}  // namespace petstore::tests
