// The in-memory store out of memory: a create whose allocation fails stores nothing (in no list,
// under no key) and takes no id, and the store goes on once memory is back. Allocations fail by
// replacing the global operator new, which is why this test is a binary of its own.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

// GCC sees free() meet the block of an operator new it inlined, not knowing both are this file's.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
// While not 0, every allocation of at least this many bytes fails.
std::atomic<std::size_t> failing_from_bytes{0};
// While above 0, counts allocations down: the one that takes it to 0 fails.
std::atomic<long> allocations_until_failure{0};
}  // namespace

void* operator new(std::size_t size) {
  const std::size_t limit = failing_from_bytes.load(std::memory_order_relaxed);
  if (limit != 0 && size >= limit) {
    throw std::bad_alloc();
  }
  if (allocations_until_failure.load(std::memory_order_relaxed) > 0 &&
      allocations_until_failure.fetch_sub(1, std::memory_order_relaxed) == 1) {
    throw std::bad_alloc();
  }
  if (void* block = std::malloc(size == 0 ? 1 : size)) {  // NOLINT(*-no-malloc,*-owning-memory)
    return block;
  }
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept {
  std::free(block);  // NOLINT(*-no-malloc,*-owning-memory)
}
void operator delete(void* block, std::size_t /*size*/) noexcept {
  std::free(block);  // NOLINT(*-no-malloc,*-owning-memory)
}

namespace petstore::tests {
namespace {

using domain::PetStatus;

// The contract's helpers come with its cases, which the memory test binary runs.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PetRepositoryContract);

// The store's sequences grow in chunks of 64, 128, ... elements: the second chunk of a status's
// pets (128 pointers) or of all pets (128 pets) takes at least this many bytes, and nothing else a
// create allocates here (short names and keys) comes near it.
constexpr std::size_t second_chunk_bytes = 128 * sizeof(void*);

// OutOfMemory: allocations of a second chunk fail while it lives.
class OutOfMemory {
 public:
  OutOfMemory() { failing_from_bytes.store(second_chunk_bytes); }
  OutOfMemory(const OutOfMemory&) = delete;
  OutOfMemory& operator=(const OutOfMemory&) = delete;
  ~OutOfMemory() { failing_from_bytes.store(0); }
};

// FailingAllocation: the `nth` allocation from now fails (and no other) while it lives.
class FailingAllocation {
 public:
  explicit FailingAllocation(long nth) { allocations_until_failure.store(nth); }
  FailingAllocation(const FailingAllocation&) = delete;
  FailingAllocation& operator=(const FailingAllocation&) = delete;
  ~FailingAllocation() { allocations_until_failure.store(0); }
};

ports::CreatePetCommand keyed(domain::NewPet pet, std::string key) {
  return {std::move(pet), ports::IdempotencyKey{"scope", std::move(key)}, test_now,
          std::chrono::hours(24)};
}

void create_many(ports::PetRepository& pets, int count, PetStatus status) {
  for (int i = 0; i < count; ++i) {
    ASSERT_TRUE(create_pet(pets, new_pet("Rex", 1, status)).has_value());
  }
}

// The 65th available pet needs its status's second chunk, when all pets' second chunk is there.
TEST(MemoryOutOfMemory, ACreateThatCannotGrowItsStatusListStoresNothing) {
  const auto pets = adapters::storage::memory::make_memory_pet_repository();
  create_many(*pets, 10, PetStatus::sold);
  create_many(*pets, 64, PetStatus::available);
  {
    const OutOfMemory out;
    EXPECT_THROW((void)create_now(*pets, keyed(new_pet("Overflow"), "k1")), std::bad_alloc);
  }
  EXPECT_EQ(count_now(*pets).value(), 74);
  EXPECT_EQ(list_all(*pets, std::nullopt, 100).size(), 74U);
  EXPECT_EQ(list_all(*pets, PetStatus::available, 100).size(), 64U);
  EXPECT_FALSE(get_now(*pets, domain::PetId{75}).has_value());

  // The key was not kept and the id not taken: the retry creates, under the next id.
  const auto retried = create_now(*pets, keyed(new_pet("Overflow"), "k1"));
  ASSERT_TRUE(retried.has_value());
  EXPECT_TRUE(retried->created);
  EXPECT_EQ(retried->pet.id, domain::PetId{75});
  const auto available = list_all(*pets, PetStatus::available, 100);
  ASSERT_EQ(available.size(), 65U);
  EXPECT_EQ(available.back().id, domain::PetId{75});
}

// The 65th pet needs all pets' second chunk; its status's list has room.
TEST(MemoryOutOfMemory, ACreateThatCannotGrowThePetsStoresNothing) {
  const auto pets = adapters::storage::memory::make_memory_pet_repository();
  for (const auto status : domain::all_pet_statuses) {
    create_many(*pets, status == PetStatus::available ? 22 : 21, status);
  }
  {
    const OutOfMemory out;
    EXPECT_THROW((void)create_now(*pets, keyed(new_pet("Overflow"), "k1")), std::bad_alloc);
  }
  EXPECT_EQ(count_now(*pets).value(), 64);
  EXPECT_EQ(list_all(*pets, PetStatus::available, 100).size(), 22U);
  const auto retried = create_now(*pets, keyed(new_pet("Overflow"), "k1"));
  ASSERT_TRUE(retried.has_value());
  EXPECT_TRUE(retried->created);
  EXPECT_EQ(retried->pet.id, domain::PetId{65});
  EXPECT_EQ(list_all(*pets, std::nullopt, 100).size(), 65U);
}

// Every allocation of a keyed create failed in turn (the first, then the second, ... until one
// create succeeds), over creates that reach a new chunk of a status's pets and of the keys'
// stamps: each failure leaves the pets, both lists and the key as they were, and the create that
// finally succeeds stores its pet under the next id, which a retry with its key then replays.
TEST(MemoryOutOfMemory, EveryAllocationOfAKeyedCreateCanFailAndStoreNothing) {
  const auto pets = adapters::storage::memory::make_memory_pet_repository();
  create_many(*pets, 10, PetStatus::sold);
  create_many(*pets, 60, PetStatus::available);
  // Longer than std::string keeps inline, so that the key's copies allocate too.
  const std::string key_prefix = "a-key-too-long-to-be-inline-";
  for (std::int64_t next = 71; next <= 80; ++next) {
    const std::string key = key_prefix + std::to_string(next);
    int failures = 0;
    for (long nth = 1;; ++nth) {
      std::optional<domain::Result<ports::CreateOutcome>> outcome;
      {
        const FailingAllocation failing(nth);
        try {
          outcome = create_now(*pets, keyed(new_pet("Rex"), key));
        } catch (const std::bad_alloc&) {
        }
      }
      if (outcome && outcome->has_value()) {
        EXPECT_TRUE((*outcome)->created) << key;
        EXPECT_EQ((*outcome)->pet.id, domain::PetId{next}) << key << " after " << failures;
        break;
      }
      ++failures;
      ASSERT_LT(nth, 1000) << "a create that never succeeds";
      EXPECT_EQ(count_now(*pets).value(), next - 1) << key << ", allocation " << nth;
      EXPECT_EQ(list_all(*pets, PetStatus::available, 100).size(),
                static_cast<std::size_t>(next - 11))
          << key << ", allocation " << nth;
      EXPECT_FALSE(get_now(*pets, domain::PetId{next}).has_value()) << key;
    }
    EXPECT_GE(failures, 1) << key;
    const auto replayed = create_now(*pets, keyed(new_pet("Rex"), key));
    ASSERT_TRUE(replayed.has_value());
    EXPECT_FALSE(replayed->created) << key;
    EXPECT_EQ(replayed->pet.id, domain::PetId{next});
  }
  EXPECT_EQ(list_all(*pets, PetStatus::available, 100).size(), 70U);
}

}  // namespace
}  // namespace petstore::tests
