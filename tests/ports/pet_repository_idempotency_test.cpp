// Contract cases for idempotent creates: repeats, conflicts, scopes and expiry.

#include <chrono>
#include <optional>
#include <string>

#include "application/idempotency.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using domain::PetStatus;
using std::chrono::hours;
using std::chrono::seconds;

ports::IdempotencyKey key(std::string value, std::string scope = "alice") {
  return ports::IdempotencyKey{std::move(scope), std::move(value)};
}

std::size_t count(const ports::PetRepository& repository) {
  return list_all(repository, std::nullopt, 100).size();
}

TEST_P(PetRepositoryContract, RepeatWithTheSameKeyAndPetReturnsTheFirstPet) {
  const auto first = create_pet(repository(), new_pet("Rex"), key("k1")).value();
  for (const seconds later : {seconds(0), seconds(1), seconds(hours(23))}) {
    const auto again = create_pet(repository(), new_pet("Rex"), key("k1"), test_now + later);
    ASSERT_TRUE(again.has_value()) << again.error().message;
    EXPECT_EQ(*again, first);
  }
  EXPECT_EQ(count(repository()), 1U);
  EXPECT_EQ(create(new_pet("Fido")).id.value, first.id.value + 1);  // no id was used up
}

TEST_P(PetRepositoryContract, KeysAreRememberedForTheWholeRetention) {
  const auto first = create_pet(repository(), new_pet("Rex"), key("k1")).value();
  const auto again = create_pet(repository(), new_pet("Rex"), key("k1"),
                                test_now + application::idempotency_retention);
  EXPECT_EQ(again.value(), first);
  EXPECT_EQ(count(repository()), 1U);
}

TEST_P(PetRepositoryContract, RepeatWithAnotherPetIsAConflict) {
  const auto first = create_pet(repository(), new_pet("Rex", 1), key("k1")).value();
  for (const auto& other : {new_pet("Fido", 1), new_pet("Rex", 2), new_pet("Rex ", 1),
                            new_pet("Rex", 1, PetStatus::sold)}) {
    const auto again = create_pet(repository(), other, key("k1"), test_now + hours(1));
    ASSERT_FALSE(again.has_value()) << other;
    EXPECT_EQ(again.error().code, ErrorCode::conflict) << other;
  }
  EXPECT_EQ(count(repository()), 1U);
  // The conflicts left the first record as it was.
  EXPECT_EQ(create_pet(repository(), new_pet("Rex", 1), key("k1")).value(), first);
  EXPECT_EQ(create(new_pet("Fido")).id.value, first.id.value + 1);
}

// The port itself only stores and gives back: a repeated key, whatever pet it comes with, gets
// the first create's pet with created false and stores nothing.
TEST_P(PetRepositoryContract, ARepeatedKeyGetsTheEarlierPetBackAndStoresNothing) {
  const auto command = [](domain::NewPet pet, std::chrono::system_clock::time_point at) {
    return ports::CreatePetCommand{std::move(pet), key("k1"), at,
                                   application::idempotency_retention};
  };
  const auto first = create_now(repository(), command(new_pet("Rex", 1), test_now)).value();
  EXPECT_TRUE(first.created);
  for (const auto& sent : {new_pet("Rex", 1), new_pet("Fido", 2, PetStatus::sold)}) {
    const auto again = create_now(repository(), command(sent, test_now + hours(1))).value();
    EXPECT_FALSE(again.created) << sent;
    EXPECT_EQ(again.pet, first.pet) << sent;
  }
  EXPECT_EQ(count(repository()), 1U);
  const auto expired = create_now(repository(), command(new_pet("Bello"), test_now + hours(25)));
  EXPECT_TRUE(expired.value().created);  // past the retention the key is free again
  EXPECT_EQ(count(repository()), 2U);
}

TEST_P(PetRepositoryContract, KeysAreScoped) {
  const auto alice = create_pet(repository(), new_pet("Rex"), key("k1", "alice")).value();
  const auto bob = create_pet(repository(), new_pet("Rex"), key("k1", "bob")).value();
  EXPECT_NE(alice.id, bob.id);
  EXPECT_EQ(create_pet(repository(), new_pet("Rex"), key("k1", "alice")).value(), alice);
  EXPECT_EQ(create_pet(repository(), new_pet("Rex"), key("k1", "bob")).value(), bob);
  EXPECT_EQ(count(repository()), 2U);
}

TEST_P(PetRepositoryContract, DistinctKeysCreateDistinctPets) {
  const auto one = create_pet(repository(), new_pet("Rex"), key("k1")).value();
  const auto two = create_pet(repository(), new_pet("Rex"), key("k2")).value();
  const auto three = create_pet(repository(), new_pet("Rex"), key("K1")).value();  // case counts
  EXPECT_LT(one.id, two.id);
  EXPECT_LT(two.id, three.id);
  EXPECT_EQ(count(repository()), 3U);
}

TEST_P(PetRepositoryContract, CreatesWithoutAKeyAreNeverMerged) {
  const auto one = create(new_pet("Rex"));
  const auto two = create(new_pet("Rex"));
  EXPECT_LT(one.id, two.id);
}

TEST_P(PetRepositoryContract, AnExpiredKeyCreatesANewPet) {
  const auto first = create_pet(repository(), new_pet("Rex"), key("k1")).value();
  const auto expiry = test_now + application::idempotency_retention + seconds(1);
  const auto second = create_pet(repository(), new_pet("Rex"), key("k1"), expiry).value();
  EXPECT_GT(second.id, first.id);
  // The key now names the second create, counted from its own time.
  EXPECT_EQ(create_pet(repository(), new_pet("Rex"), key("k1"), expiry + hours(1)).value(), second);
  const auto conflict = create_pet(repository(), new_pet("Fido"), key("k1"), expiry + hours(2));
  ASSERT_FALSE(conflict.has_value());
  EXPECT_EQ(conflict.error().code, ErrorCode::conflict);
  EXPECT_EQ(count(repository()), 2U);
}

TEST_P(PetRepositoryContract, AnExpiredKeyMayBeReusedWithAnotherPet) {
  (void)create_pet(repository(), new_pet("Rex"), key("k1")).value();
  const auto later = test_now + application::idempotency_retention + hours(1);
  const auto other = create_pet(repository(), new_pet("Fido"), key("k1"), later);
  ASSERT_TRUE(other.has_value()) << other.error().message;
  EXPECT_EQ(other->name.value(), "Fido");
}

// Expiry is per key: one key running out does not take younger keys with it.
TEST_P(PetRepositoryContract, KeysExpireOneByOne) {
  const auto old_pet = create_pet(repository(), new_pet("Rex"), key("old")).value();
  const auto young =
      create_pet(repository(), new_pet("Fido"), key("young"), test_now + hours(12)).value();
  const auto later = test_now + hours(30);
  EXPECT_GT(create_pet(repository(), new_pet("Rex"), key("old"), later).value().id, young.id);
  EXPECT_EQ(create_pet(repository(), new_pet("Fido"), key("young"), later).value(), young);
  EXPECT_NE(old_pet.id, young.id);
}

// Stamps may arrive out of order (a clock stepped back, or two creates racing): a key whose record
// was replaced after it expired is then counted from its new stamp, not forgotten with the old.
TEST_P(PetRepositoryContract, KeysStampedOutOfOrderExpireByTheirOwnStamp) {
  (void)create_pet(repository(), new_pet("Rex"), key("a"), test_now + hours(10)).value();
  const auto first = create_pet(repository(), new_pet("Fido"), key("k"), test_now).value();
  const auto renewed =
      create_pet(repository(), new_pet("Fido"), key("k"), test_now + hours(25)).value();
  EXPECT_GT(renewed.id, first.id);
  (void)create_pet(repository(), new_pet("Bello"), key("x"), test_now + hours(35)).value();
  EXPECT_EQ(create_pet(repository(), new_pet("Fido"), key("k"), test_now + hours(36)).value(),
            renewed);
  EXPECT_EQ(count(repository()), 4U);
}

}  // namespace
}  // namespace petstore::tests
