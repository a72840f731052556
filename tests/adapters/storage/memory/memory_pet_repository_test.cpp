// The in-memory repository: the contract suite, plus what only this adapter promises.

#include "adapters/storage/memory/memory_pet_repository.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

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

// checked_page: how many ways `page` breaks what a reader beside creates must see: the pets in
// `status` (all when nullopt) one after another in id order, with no gap where no status is asked
// (memory gives ids one after another), each pet whole: the status its writer gave its category.
int checked_page(const ports::PetPage& page, std::optional<domain::PetStatus> status) {
  int broken = 0;
  for (std::size_t i = 0; i < page.pets.size(); ++i) {
    const domain::Pet& pet = page.pets[i];
    const auto made_status =
        domain::all_pet_statuses[static_cast<std::size_t>(pet.category_id.value % 3)];
    broken += pet.status != made_status || pet.name.value() != "Beside" ? 1 : 0;
    broken += status && pet.status != *status ? 1 : 0;
    if (i > 0) {
      const std::int64_t step = pet.id.value - page.pets[i - 1].id.value;
      broken += (status ? step <= 0 : step != 1) ? 1 : 0;
    }
  }
  return broken;
}

// Reads take no lock: while four threads create, readers page through every pet and through
// each status, and each page holds whole pets in id order; a pet a page shows is found by id.
TEST(MemoryPetRepository, ReadsBesideCreatesSeeWholePetsInIdOrder) {
  const auto repository = adapters::storage::memory::make_memory_pet_repository();
  constexpr int writers = 4;
  constexpr int per_writer = 3000;
  std::atomic<bool> writing{true};
  std::atomic<int> broken{0};
  constexpr int reader_count = 2;
  std::vector<std::thread> readers;
  readers.reserve(reader_count);
  for (int r = 0; r < reader_count; ++r) {
    readers.emplace_back([&, r] {
      std::int64_t after = 0;
      int pages = 0;  // read on after the creates until a page is checked
      for (std::size_t round = 0; writing.load() || pages == 0; ++round) {
        const std::optional<domain::PetStatus> status =
            r == 0
                ? std::nullopt
                : std::optional(domain::all_pet_statuses[round % domain::all_pet_statuses.size()]);
        const auto page = list_now(*repository, {status, domain::PetId{after}, page_size(50)});
        if (!page || page->pets.empty()) {
          broken += page ? 0 : 1;
          after = 0;
          continue;
        }
        broken += checked_page(*page, status);
        const domain::Pet& last = page->pets.back();
        const auto found = get_now(*repository, last.id);
        broken += found && *found == last ? 0 : 1;
        after = page->has_more ? last.id.value : 0;
        ++pages;
      }
    });
  }
  std::vector<std::thread> threads;
  threads.reserve(writers);
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&] {
      for (int i = 0; i < per_writer; ++i) {
        const auto status = domain::all_pet_statuses[static_cast<std::size_t>(i % 3)];
        broken += create_pet(*repository, new_pet("Beside", i, status)).has_value() ? 0 : 1;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  writing = false;
  for (auto& reader : readers) {
    reader.join();
  }
  EXPECT_EQ(broken.load(), 0);
  const auto everything = list_all(*repository, std::nullopt, 100);
  ASSERT_EQ(everything.size(), static_cast<std::size_t>(writers * per_writer));
  EXPECT_EQ(checked_page(ports::PetPage{everything, false}, std::nullopt), 0);
}

}  // namespace
}  // namespace petstore::tests
