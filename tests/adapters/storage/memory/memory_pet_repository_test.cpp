// The in-memory repository: the contract suite, plus what only this adapter promises.

#include "adapters/storage/memory/memory_pet_repository.hpp"

#include <memory>
#include <string>
#include <thread>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using std::chrono::hours;

class MemoryHarness final : public RepositoryHarness {
 public:
  [[nodiscard]] ports::PetRepository& repository() override { return *repository_; }
  bool reopen() override { return false; }  // memory keeps nothing across a reopen

 private:
  std::unique_ptr<ports::PetRepository> repository_ =
      adapters::storage::memory::make_memory_pet_repository();
};

// A harness whose reopen keeps the very same repository: not a durability test of memory, but
// it runs the reopen cases' own logic, which the plain memory harness skips.
class KeptOpenHarness final : public RepositoryHarness {
 public:
  [[nodiscard]] ports::PetRepository& repository() override { return *repository_; }
  bool reopen() override { return true; }

 private:
  std::unique_ptr<ports::PetRepository> repository_ =
      adapters::storage::memory::make_memory_pet_repository();
};

INSTANTIATE_TEST_SUITE_P(
    Memory, PetRepositoryContract,
    testing::Values(AdapterUnderTest{"memory", [] { return std::make_unique<MemoryHarness>(); }},
                    AdapterUnderTest{"memory_kept_open",
                                     [] { return std::make_unique<KeptOpenHarness>(); }}),
    adapter_name);

TEST(MemoryPetRepository, CallsDoneOnTheCallingThreadBeforeReturning) {
  const auto repository = adapters::storage::memory::make_memory_pet_repository();
  const auto caller = std::this_thread::get_id();
  int calls = 0;
  repository->create(ports::CreatePetCommand{new_pet("Rex"), std::nullopt, test_now},
                     pet_done([&](const domain::Result<domain::Pet>& result) {
                       EXPECT_TRUE(result.has_value());
                       EXPECT_EQ(std::this_thread::get_id(), caller);
                       ++calls;
                     }));
  EXPECT_EQ(calls, 1);
}

// `done` runs outside the lock, so it may use the repository again without deadlocking.
TEST(MemoryPetRepository, DoneMayCallBackIntoTheRepository) {
  const auto repository = adapters::storage::memory::make_memory_pet_repository();
  std::optional<domain::Pet> nested;
  repository->create(ports::CreatePetCommand{new_pet("Rex"), std::nullopt, test_now},
                     pet_done([&](const domain::Result<domain::Pet>& result) {
                       EXPECT_EQ(get_now(*repository, result.value().id).value(), result.value());
                       nested = create_pet(*repository, new_pet("Fido")).value();
                     }));
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(nested->id.value, 2);
}

// The adapter names no HTTP input: a conflict is the core's, named by its own word for the key,
// and a missing pet is only not_found (the HTTP adapter words both for clients).
TEST(MemoryPetRepository, ErrorsCarryNoHttpWords) {
  const auto repository = adapters::storage::memory::make_memory_pet_repository();
  const ports::IdempotencyKey key{"alice", "k1"};
  (void)create_pet(*repository, new_pet("Rex"), key).value();
  const auto conflict = create_pet(*repository, new_pet("Fido"), key);
  ASSERT_FALSE(conflict.has_value());
  EXPECT_EQ(conflict.error().code, domain::ErrorCode::conflict);
  EXPECT_EQ(conflict.error().field, "idempotency_key");
  const auto missing = get_now(*repository, domain::PetId{12});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, domain::ErrorCode::not_found);
  EXPECT_EQ(missing.error().field, "");
}

// Many keys expire at once: every one of them may then name a new create.
TEST(MemoryPetRepository, ForgetsEveryExpiredKey) {
  const auto repository = adapters::storage::memory::make_memory_pet_repository();
  constexpr int keys = 500;
  for (int i = 0; i < keys; ++i) {
    const ports::IdempotencyKey key{"alice", std::to_string(i)};
    (void)create_pet(*repository, new_pet("Rex"), key, test_now).value();
  }
  for (int i = 0; i < keys; ++i) {
    const ports::IdempotencyKey key{"alice", std::to_string(i)};
    const auto renewed = create_pet(*repository, new_pet("Fido"), key, test_now + hours(25));
    ASSERT_TRUE(renewed.has_value()) << "key " << i << ": " << renewed.error().message;
    EXPECT_EQ(renewed->id.value, keys + i + 1);
  }
}

}  // namespace
}  // namespace petstore::tests
