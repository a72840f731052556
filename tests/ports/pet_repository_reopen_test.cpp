// Contract cases for durable adapters: what a reopen must keep. Skipped where reopen() says the
// adapter keeps nothing (memory).

#include <optional>
#include <vector>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

TEST_P(PetRepositoryContract, ReopenKeepsPetsStatusesAndOrder) {
  constexpr int pet_count = 9;
  std::vector<domain::Pet> created;
  created.reserve(pet_count);
  for (int i = 0; i < pet_count; ++i) {
    created.push_back(create(new_pet("Pet \u00E9", i, domain::all_pet_statuses[i % 3])));
  }
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  for (const auto& pet : created) {
    EXPECT_EQ(get_now(repository(), pet.id).value(), pet);
  }
  EXPECT_EQ(list_all(repository(), std::nullopt, 4), created);
  for (const auto status : domain::all_pet_statuses) {
    const auto listed = list_all(repository(), status, 2);
    ASSERT_EQ(listed.size(), 3U) << status;
    for (const auto& pet : listed) {
      EXPECT_EQ(pet.status, status);
    }
  }
}

TEST_P(PetRepositoryContract, ReopenKeepsTheNextId) {
  const auto before = create(new_pet("Rex"));
  const auto last = create(new_pet("Fido"));
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  const auto after = create(new_pet("Bello"));
  EXPECT_GT(after.id, last.id);
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  EXPECT_GT(create(new_pet("Rex")).id, after.id);
  EXPECT_EQ(get_now(repository(), before.id).value(), before);
}

TEST_P(PetRepositoryContract, ReopenKeepsIdempotencyRecords) {
  const ports::IdempotencyKey key{"alice", "k1"};
  const auto first = create_pet(repository(), new_pet("Rex"), key).value();
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  EXPECT_EQ(create_pet(repository(), new_pet("Rex"), key).value(), first);
  const auto conflict = create_pet(repository(), new_pet("Fido"), key);
  ASSERT_FALSE(conflict.has_value());
  EXPECT_EQ(conflict.error().code, domain::ErrorCode::conflict);
  EXPECT_EQ(list_all(repository(), std::nullopt, 100).size(), 1U);
}

TEST_P(PetRepositoryContract, ReopenOfAnEmptyRepositoryStartsAtOne) {
  if (!harness().reopen()) {
    GTEST_SKIP() << "the adapter keeps nothing across a reopen";
  }
  EXPECT_TRUE(list_all(repository(), std::nullopt, 100).empty());
  EXPECT_EQ(create(new_pet("Rex")).id, domain::first_pet_id);
}

}  // namespace
}  // namespace petstore::tests
