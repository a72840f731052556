// Contract cases for count: it follows creates, ignores idempotent replays, and survives a
// reopen where the adapter keeps data.

#include <cstdint>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

std::int64_t count_of(const ports::PetRepository& repository) {
  return count_now(repository).value();
}

TEST_P(PetRepositoryContract, CountOfAnEmptyRepositoryIsZero) {
  EXPECT_EQ(count_of(repository()), 0);
}

TEST_P(PetRepositoryContract, CountFollowsCreates) {
  for (std::int64_t expected = 1; expected <= 7; ++expected) {
    (void)create(new_pet("Rex", expected, domain::all_pet_statuses[expected % 3]));
    EXPECT_EQ(count_of(repository()), expected);
  }
}

TEST_P(PetRepositoryContract, CountIgnoresIdempotentReplays) {
  const ports::IdempotencyKey key{"scope", "key-1"};
  ASSERT_TRUE(create_pet(repository(), new_pet("Rex"), key).has_value());
  ASSERT_TRUE(create_pet(repository(), new_pet("Rex"), key).has_value());
  EXPECT_FALSE(create_pet(repository(), new_pet("Other"), key).has_value());  // conflict
  EXPECT_EQ(count_of(repository()), 1);
}

TEST_P(PetRepositoryContract, CountSurvivesAReopen) {
  (void)create(new_pet("Rex"));
  (void)create(new_pet("Fido"));
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  EXPECT_EQ(count_of(repository()), 2);
}

}  // namespace
}  // namespace petstore::tests
