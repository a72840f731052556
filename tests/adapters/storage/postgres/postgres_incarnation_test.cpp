// Schema version 4's incarnation marker (adapters/storage/postgres/postgres_incarnation.hpp), on
// the executable's own server: a database it creates or migrates has the marker, so ids go on
// without a gap; a server that lost the marker (crash recovery, a promoted standby; here
// TRUNCATE stands in for both) moves the counter past the gap once; an instance of version 3
// still running waits (55P03) rather than hand out an id below the gap; and the gap never wraps
// past the largest id. The crashes and failovers themselves are in postgres_lost_ids_test.cpp.

#include "adapters/storage/postgres/postgres_incarnation.hpp"

#include <libpq-fe.h>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_probe.hpp"
#include "support/postgres_server.hpp"

#include "postgres_schema_steps.hpp"

namespace petstore::tests {
namespace {

using adapters::storage::postgres::ConnPtr;
using adapters::storage::postgres::incarnation_gap;

std::unique_ptr<ports::PetRepository> open_repository(const std::string& url) {
  adapters::storage::postgres::PostgresOptions options;
  options.database_url = url;
  return adapters::storage::postgres::make_postgres_pet_repository(options).value();
}

// Sql: the test's own session; run() fails the test when a statement fails.
class Sql {
 public:
  explicit Sql(const std::string& url) : conn_(PQconnectdb(url.c_str())) {}
  void run(const std::string& sql) {
    const adapters::storage::postgres::ResultPtr result(PQexec(conn_.get(), sql.c_str()));
    const auto status = PQresultStatus(result.get());
    EXPECT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        << sql << ": " << PQerrorMessage(conn_.get());
  }
  // sqlstate: the SQLSTATE `sql` failed with, "" when it succeeded.
  std::string sqlstate(const std::string& sql) {
    const adapters::storage::postgres::ResultPtr result(PQexec(conn_.get(), sql.c_str()));
    const char* state = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
    return state != nullptr ? state : "";
  }
  std::string value(const std::string& sql) { return first_value(conn_.get(), sql); }

 private:
  ConnPtr conn_;
};

std::int64_t create(ports::PetRepository& pets, const char* name) {
  return create_pet(pets, new_pet(name)).value().id.value;
}

// A version 3 binary's batch, as it called create_pets: no open_incarnation() first.
constexpr const char* version_3_batch =
    "SELECT r_id FROM petstore.create_pets(ARRAY['Old'], ARRAY[1]::bigint[], "
    "ARRAY['available'], ARRAY[NULL]::text[], ARRAY[NULL]::text[], ARRAY[0]::bigint[], "
    "ARRAY[0]::bigint[], 0, 16)";

TEST(PostgresIncarnation, ANewDatabaseAndAMigratedOneGoOnWithoutAGap) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  {
    const auto pets = open_repository(url);
    EXPECT_EQ(create(*pets, "One"), 1);
    EXPECT_EQ(create(*pets, "Two"), 2);
  }
  Sql sql(url);
  sql.run(std::string(versions_4_and_5_undone) + "UPDATE petstore.schema_version SET version = 3");
  const auto pets = open_repository(url);  // migrates 3 to 5
  EXPECT_EQ(sql.value("SELECT max(version) FROM petstore.schema_version"), "5");
  // Version 5's wait is back: NULL at once on a server not in recovery.
  EXPECT_EQ(sql.value("SELECT petstore.replay_reaches('0/1', 1000) IS NULL"), "t");
  EXPECT_EQ(create(*pets, "Three"), 3);
  EXPECT_EQ(sql.value("SELECT count(*) FROM petstore.incarnation"), "1");
}

TEST(PostgresIncarnation, AServerWithoutTheMarkerMovesTheCounterPastTheGapOnce) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  const auto pets = open_repository(url);
  EXPECT_EQ(create(*pets, "Before"), 1);
  Sql sql(url);
  sql.run("TRUNCATE petstore.incarnation");
  EXPECT_EQ(create(*pets, "First of the new incarnation"), 2 + incarnation_gap);
  EXPECT_EQ(create(*pets, "Second"), 3 + incarnation_gap);
  EXPECT_EQ(count_now(*pets).value(), 3);
}

TEST(PostgresIncarnation, AVersionThreeInstanceWaitsUntilTheIncarnationIsOpen) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  const auto pets = open_repository(url);
  EXPECT_EQ(create(*pets, "Before"), 1);
  Sql sql(url);
  sql.run("TRUNCATE petstore.incarnation");
  EXPECT_EQ(sql.sqlstate(version_3_batch), "55P03");  // which a petstore answers 503
  EXPECT_EQ(sql.value("SELECT next_id FROM petstore.id_counter"), "2");
  EXPECT_EQ(create(*pets, "After"), 2 + incarnation_gap);
  EXPECT_EQ(sql.value(version_3_batch), std::to_string(3 + incarnation_gap));
}

TEST(PostgresIncarnation, TheGapNeverWrapsPastTheLargestId) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  const auto pets = open_repository(url);
  Sql sql(url);
  sql.run("UPDATE petstore.id_counter SET next_id = 9223372036854775000");
  EXPECT_EQ(create(*pets, "Near the end"), 9223372036854775000);
  sql.run("TRUNCATE petstore.incarnation");
  const auto refused = create_pet(*pets, new_pet("Past the end"));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, domain::ErrorCode::unavailable);
  EXPECT_FALSE(create_pet(*pets, new_pet("Again")).has_value());
  EXPECT_EQ(count_now(*pets).value(), 1);
}

}  // namespace
}  // namespace petstore::tests
