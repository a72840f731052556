#pragma once
// SQL that takes a migrated database back to an older schema version's objects, so that a test
// can make the database an older binary left and watch this one migrate it forward.

namespace petstore::tests {

// versions_4_and_5_undone: the objects of schema versions 5 (postgres_replay_wait.hpp) and 4
// (postgres_incarnation.hpp) dropped; the version row is the test's to set.
inline constexpr const char* versions_4_and_5_undone =
    "DROP FUNCTION petstore.replay_reaches(pg_lsn, integer); "
    "DROP TRIGGER counter_needs_incarnation ON petstore.id_counter; "
    "DROP FUNCTION petstore.counter_needs_incarnation(); "
    "DROP FUNCTION petstore.open_incarnation(); DROP TABLE petstore.incarnation; ";

}  // namespace petstore::tests
