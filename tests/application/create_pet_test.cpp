// CreatePet scopes idempotency keys itself: a key belongs to the principal that sent it, so the
// same key from two API keys names two creates, and from one key, one.

#include "application/create_pet.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/fake_clock.hpp"

namespace petstore::application {
namespace {

class CreatePetTest : public testing::Test {
 protected:
  // create: the pet's id, or 0 when the create failed. The memory repository answers at once.
  std::int64_t create(const std::string& principal, std::optional<std::string> key) {
    std::int64_t id = 0;
    create_(ports::Principal{principal},
            domain::NewPet{domain::PetName::parse("Rex").value(), domain::CategoryId{7}},
            std::move(key), [&id](domain::Result<domain::Pet> pet) {
              if (pet) {
                id = pet->id.value;
              }
            });
    return id;
  }

  tests::FakeClock clock_;
  std::unique_ptr<ports::PetRepository> pets_ =
      adapters::storage::memory::make_memory_pet_repository();
  CreatePet create_{*pets_, clock_};
};

TEST_F(CreatePetTest, OnePrincipalsKeyNamesOneCreate) {
  const std::int64_t first = create("key-a", "order-42");
  ASSERT_NE(first, 0);
  EXPECT_EQ(create("key-a", "order-42"), first);
}

TEST_F(CreatePetTest, TheSameKeyFromAnotherPrincipalIsAnotherCreate) {
  const std::int64_t first = create("key-a", "order-42");
  const std::int64_t second = create("key-b", "order-42");
  ASSERT_NE(first, 0);
  ASSERT_NE(second, 0);
  EXPECT_NE(second, first);
  EXPECT_EQ(create("key-b", "order-42"), second);
}

TEST_F(CreatePetTest, WithoutAKeyEveryCreateIsNew) {
  EXPECT_NE(create("key-a", std::nullopt), create("key-a", std::nullopt));
}

}  // namespace
}  // namespace petstore::application
