#pragma once
// SQL that takes a migrated database back to an older schema version's objects, so that a test
// can make the database an older binary left and watch this one migrate it forward.

namespace petstore::tests {

// version_4_undone: schema version 4's objects dropped (postgres_incarnation.hpp); the version
// row is the test's to set.
inline constexpr const char* version_4_undone =
    "DROP TRIGGER counter_needs_incarnation ON petstore.id_counter; "
    "DROP FUNCTION petstore.counter_needs_incarnation(); "
    "DROP FUNCTION petstore.open_incarnation(); DROP TABLE petstore.incarnation; ";

}  // namespace petstore::tests
