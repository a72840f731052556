// Which refusals of the database the adapter answers unavailable (worth a retry) rather than
// internal (adapters/storage/postgres/postgres_errors.hpp): one rule for the poll loops'
// statements and the blocking sessions' alike.

#include "adapters/storage/postgres/postgres_errors.hpp"

#include <gtest/gtest.h>

namespace petstore::adapters::storage::postgres {
namespace {

TEST(PostgresErrors, ARefusalIsWorthAnotherTryOnlyWhenItsClassIsTransient) {
  for (const char* transient :
       {"08006", "08001", "40001", "40P01", "53300", "57P01", "57014", "55P03"}) {
    EXPECT_TRUE(transient_sqlstate(transient)) << transient;
  }
  for (const char* lasting : {"", "42P01", "23505", "22P02", "55000", "XX000", "PS001", "0A000"}) {
    EXPECT_FALSE(transient_sqlstate(lasting)) << lasting;
  }
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres
