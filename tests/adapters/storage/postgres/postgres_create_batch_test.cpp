// What petstore.create_pets (schema version 3: a batch in one statement, the counter row locked
// last) must keep, on the executable's own server: one key twice in one batch stores one pet;
// names and keys with the array literal's special characters come back unchanged; and a database
// that version 2's create_pet wrote is migrated, its keys still replaying. Two pools on one
// database (two instances) are in postgres_two_pools_test.cpp.

#include <atomic>
#include <chrono>
#include <libpq-fe.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/commit_gate.hpp"
#include "support/postgres_hooks.hpp"
#include "support/postgres_server.hpp"

#include "postgres_schema_steps.hpp"

namespace petstore::tests {
namespace {

using Outcome = std::optional<domain::Result<ports::CreateOutcome>>;

std::unique_ptr<ports::PetRepository> open_repository(const std::string& url,
                                                      CommitGate* gate = nullptr) {
  adapters::storage::postgres::PostgresOptions options;
  options.database_url = url;
  if (gate != nullptr) {
    auto hooks = std::make_shared<PostgresHooks>();
    hooks->on_commit = gate->hook();
    options.observer = hooks;
  }
  return adapters::storage::postgres::make_postgres_pet_repository(options).value();
}

// in_one_batch: the outcomes of `commands`, sent while the writer is held after a first create,
// so that they are committed as one batch (checked through the gate).
std::vector<Outcome> in_one_batch(ports::PetRepository& repository, CommitGate& gate,
                                  std::vector<ports::CreatePetCommand> commands) {
  (void)create_pet(repository, new_pet("First")).value();
  gate.wait_for_commits(1);
  std::vector<Outcome> outcomes(commands.size());
  std::atomic<std::size_t> calls{0};
  for (std::size_t i = 0; i < commands.size(); ++i) {
    repository.create(std::move(commands[i]),
                      [&outcomes, &calls, i](domain::Result<ports::CreateOutcome> outcome) {
                        outcomes[i].emplace(std::move(outcome));
                        ++calls;
                      });
  }
  gate.open();
  while (calls.load() < outcomes.size()) {
    std::this_thread::yield();
  }
  gate.wait_for_commits(2);  // a batch is recorded only after its creates have called back
  EXPECT_EQ(gate.batches(), (std::vector<std::size_t>{1, outcomes.size()}));
  return outcomes;
}

ports::CreatePetCommand command(std::string_view name, std::optional<std::string> key = {},
                                std::string scope = "scope") {
  std::optional<ports::IdempotencyKey> idempotency;
  if (key) {
    idempotency = ports::IdempotencyKey{std::move(scope), std::move(*key)};
  }
  return {new_pet(name), std::move(idempotency), test_now, std::chrono::hours(24)};
}

TEST(PostgresCreateBatch, OneKeyTwiceInOneBatchStoresOnePet) {
  auto& server = shared_postgres_server();
  CommitGate gate;
  const auto repository = open_repository(server.url(server.create_database()), &gate);
  auto outcomes = in_one_batch(*repository, gate,
                               {command("Keyed", "k"), command("Plain"), command("Keyed", "k"),
                                command("Other", "k2"), command("Keyed", "k")});
  for (const auto& outcome : outcomes) {
    ASSERT_TRUE(outcome && outcome->has_value()) << outcome->error().message;
  }
  const auto pet = [&](std::size_t i) { return (*outcomes[i])->pet; };
  EXPECT_TRUE((*outcomes[0])->created);
  EXPECT_FALSE((*outcomes[2])->created);
  EXPECT_FALSE((*outcomes[4])->created);
  EXPECT_EQ(pet(0), pet(2));
  EXPECT_EQ(pet(0), pet(4));
  // Ids in the batch's order, one per pet stored: First is 1.
  EXPECT_EQ(pet(0).id.value, 2);
  EXPECT_EQ(pet(1).id.value, 3);
  EXPECT_EQ(pet(3).id.value, 4);
  EXPECT_EQ(count_now(*repository).value(), 4);
  EXPECT_EQ(get_now(*repository, pet(0).id).value(), pet(0));
  // The record names the stored pet, not the batch's placeholder: a later replay finds it.
  const auto again = create_now(*repository, command("Keyed", "k")).value();
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.pet, pet(0));
}

TEST(PostgresCreateBatch, NamesAndKeysWithTheArrayLiteralsCharactersComeBackUnchanged) {
  auto& server = shared_postgres_server();
  CommitGate gate;
  const auto repository = open_repository(server.url(server.create_database()), &gate);
  const std::vector<std::string> names{
      "a\"b", "back\\slash", "{braces},commas",          "NULL", " spaced ",
      "\"",   "\\",          "\xC3\xBC \xF0\x9F\x90\xBE"};
  std::vector<ports::CreatePetCommand> commands;
  commands.reserve(names.size());
  for (const auto& name : names) {
    commands.push_back(command(name, name, "\"scope\\" + name));
  }
  const auto outcomes = in_one_batch(*repository, gate, commands);
  for (std::size_t i = 0; i < names.size(); ++i) {
    ASSERT_TRUE(outcomes[i] && outcomes[i]->has_value()) << names[i];
    EXPECT_EQ((*outcomes[i])->pet.name.value(), names[i]);
    EXPECT_EQ(get_now(*repository, (*outcomes[i])->pet.id).value().name.value(), names[i]);
    const auto again = create_now(*repository, command(names[i], names[i], "\"scope\\" + names[i]));
    ASSERT_TRUE(again) << names[i];
    EXPECT_FALSE(again->created) << names[i];
    EXPECT_EQ(again->pet, (*outcomes[i])->pet);
  }
}

void run_sql(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  PGresult* result = PQexec(conn, sql.c_str());
  const auto status = PQresultStatus(result);
  EXPECT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) << PQerrorMessage(conn);
  PQclear(result);
  PQfinish(conn);
}

// A database as version 2 left it: the schema migrated, then the objects of versions 5 and 4 and
// create_pets dropped and the version set back; version 2's create_pet (kept by version 3) stores
// two pets, one keyed.
TEST(PostgresCreateBatch, AVersionTwoDatabaseIsMigratedAndItsKeysStillReplay) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  {
    const auto first = open_repository(url);  // creates the schema, version 5
  }
  const auto stamp = std::to_string(
      std::chrono::duration_cast<std::chrono::nanoseconds>(test_now.time_since_epoch()).count());
  run_sql(url,
          std::string(versions_4_and_5_undone) +
              "DROP FUNCTION petstore.create_pets; UPDATE petstore.schema_version SET version = 2; "
              "SELECT petstore.create_pet('Old', 1, 'available', 'scope', 'old', " +
              stamp + ", 0); SELECT petstore.create_pet('Older', 2, 'sold', NULL, NULL, " + stamp +
              ", 0)");
  const auto repository = open_repository(url);
  const auto replay = create_now(*repository, command("Old", "old"));
  ASSERT_TRUE(replay) << replay.error().message;
  EXPECT_FALSE(replay->created);
  EXPECT_EQ(replay->pet.id.value, 1);
  const auto created = create_now(*repository, command("New", "new"));
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_TRUE(created->created);
  EXPECT_EQ(created->pet.id.value, 3);
  EXPECT_EQ(count_now(*repository).value(), 3);
}

}  // namespace
}  // namespace petstore::tests
