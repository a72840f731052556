// Contract cases for create and get, including concurrent creates.

#include "ports/pet_repository_contract.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using domain::PetId;
using domain::PetStatus;

constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();

TEST_P(PetRepositoryContract, CreateAssignsIdsFromOneUpward) {
  for (std::int64_t expected = 1; expected <= 5; ++expected) {
    EXPECT_EQ(create(new_pet("Rex")).id.value, expected);
  }
}

// A create its caller has already given up on (its deadline passed: the client had its 503) is
// answered unavailable and never stored, on every adapter.
TEST_P(PetRepositoryContract, ACreatePastItsDeadlineIsUnavailableAndStoresNothing) {
  std::promise<domain::Result<ports::CreateOutcome>> answered;
  repository().create({new_pet("Late"), std::nullopt, test_now},
                      ports::PetRepository::CreateDone(
                          [&answered](domain::Result<ports::CreateOutcome> result) {
                            answered.set_value(std::move(result));
                          },
                          std::chrono::steady_clock::now() - std::chrono::milliseconds(1)));
  const auto result = answered.get_future().get();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::unavailable);
  EXPECT_TRUE(list_all(repository(), std::nullopt, 100).empty());
  EXPECT_EQ(create(new_pet("OnTime")).id.value, 1);
}

TEST_P(PetRepositoryContract, CreateReturnsThePetAsSent) {
  const auto sent = new_pet("Fido", 42, PetStatus::pending);
  const auto created = create(sent);
  EXPECT_EQ(created, domain::with_id(created.id, sent));
}

TEST_P(PetRepositoryContract, IdsStrictlyIncrease) {
  std::int64_t last = 0;
  for (int i = 0; i < 20; ++i) {
    const auto id = create(new_pet("Rex", i, domain::all_pet_statuses[i % 3])).id.value;
    EXPECT_GT(id, last);
    last = id;
  }
}

TEST_P(PetRepositoryContract, GetReturnsTheStoredPet) {
  std::vector<domain::Pet> created;
  created.reserve(domain::all_pet_statuses.size());
  for (const auto status : domain::all_pet_statuses) {
    created.push_back(create(new_pet("Pet " + std::string(to_string(status)), 7, status)));
  }
  for (const auto& pet : created) {
    const auto found = get_now(repository(), pet.id);
    ASSERT_TRUE(found.has_value()) << pet;
    EXPECT_EQ(*found, pet);
  }
}

TEST_P(PetRepositoryContract, GetOfAnEmptyRepositoryIsNotFound) {
  const auto found = get_now(repository(), domain::first_pet_id);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().code, ErrorCode::not_found);
}

TEST_P(PetRepositoryContract, GetOfAnUnknownIdIsNotFound) {
  (void)create(new_pet("Rex"));
  const auto last = create(new_pet("Fido"));
  for (const std::int64_t id : {std::int64_t{0}, std::int64_t{-1}, int64_min, last.id.value + 1,
                                last.id.value + 1000, int64_max}) {
    const auto found = get_now(repository(), PetId{id});
    ASSERT_FALSE(found.has_value()) << "id " << id;
    EXPECT_EQ(found.error().code, ErrorCode::not_found) << "id " << id;
  }
}

TEST_P(PetRepositoryContract, StatusIsKeptAndDefaultsToAvailable) {
  const auto defaulted = create(domain::NewPet{domain::PetName::parse("Rex").value(), {3}});
  EXPECT_EQ(get_now(repository(), defaulted.id).value().status, PetStatus::available);
  for (const auto status : domain::all_pet_statuses) {
    const auto pet = create(new_pet("Rex", 3, status));
    EXPECT_EQ(get_now(repository(), pet.id).value().status, status);
  }
}

TEST_P(PetRepositoryContract, NamesAreKeptExactly) {
  std::string two_hundred_astral;
  for (int i = 0; i < 200; ++i) {
    two_hundred_astral += "\U0001F415";  // 4 bytes each: 800 bytes, 200 code points
  }
  const std::vector<std::string> names{"\u00D1and\u00FA",     "\u732B",          "\U0001F415 Bruno",
                                       "  padded  ",          "e\u0301",  // no NFC
                                       "\u00A0Rex\u3000",     "a\u0085b",        "\u200B",
                                       "Z\u00E9\u00E9\u00E9", two_hundred_astral};
  for (const auto& name : names) {
    const auto pet = create(new_pet(name));
    EXPECT_EQ(get_now(repository(), pet.id).value().name.value(), name);
  }
  const auto listed = list_all(repository(), std::nullopt, 100);
  ASSERT_EQ(listed.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(listed[i].name.value(), names[i]);
  }
}

TEST_P(PetRepositoryContract, CategoryIdsRoundTripOverTheWholeInt64Range) {
  for (const std::int64_t category :
       {int64_min, int64_min + 1, std::int64_t{-1}, std::int64_t{0}, int64_max - 1, int64_max}) {
    const auto pet = create(new_pet("Rex", category));
    EXPECT_EQ(pet.category_id.value, category);
    EXPECT_EQ(get_now(repository(), pet.id).value().category_id.value, category);
  }
}

// Eight writers and two readers at once: ids are distinct, each writer sees its own ids
// increase, every pet is readable afterwards, and readers only ever see ascending pages.
TEST_P(PetRepositoryContract, ConcurrentCreatesGetDistinctIds) {
  constexpr int writers = 8;
  constexpr int per_writer = 25;
  std::vector<std::vector<domain::Pet>> created(writers);
  std::atomic<bool> writing{true};
  std::atomic<int> unordered_pages{0};
  std::vector<std::thread> threads;
  threads.reserve(writers);
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < per_writer; ++i) {
        const auto status = domain::all_pet_statuses[static_cast<std::size_t>(i % 3)];
        auto pet = create_pet(repository(), new_pet("Writer " + std::to_string(w), i, status));
        if (pet) {
          created[static_cast<std::size_t>(w)].push_back(*pet);
        }
      }
    });
  }
  constexpr int reader_count = 2;
  std::vector<std::thread> readers;
  readers.reserve(reader_count);
  for (int r = 0; r < reader_count; ++r) {
    readers.emplace_back([&] {
      while (writing) {
        const auto page = list_now(repository(), {std::nullopt, std::nullopt, page_size(100)});
        for (std::size_t i = 1; page && i < page->pets.size(); ++i) {
          unordered_pages += page->pets[i - 1].id >= page->pets[i].id ? 1 : 0;
        }
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
  EXPECT_EQ(unordered_pages, 0);
  std::set<std::int64_t> ids;
  for (const auto& mine : created) {
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(per_writer));
    for (std::size_t i = 0; i < mine.size(); ++i) {
      EXPECT_TRUE(ids.insert(mine[i].id.value).second) << "id given twice: " << mine[i].id.value;
      EXPECT_TRUE(i == 0 || mine[i - 1].id < mine[i].id);
      EXPECT_EQ(get_now(repository(), mine[i].id).value(), mine[i]);
    }
  }
  EXPECT_EQ(list_all(repository(), std::nullopt, 100).size(), ids.size());
}

}  // namespace
}  // namespace petstore::tests
