// Contract cases for list: order, limit, status filter, `after` and `has_more`.

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using domain::PetId;
using domain::PetStatus;

constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();

constexpr std::array<std::optional<PetStatus>, 4> every_filter{std::nullopt, PetStatus::available,
                                                               PetStatus::pending, PetStatus::sold};

std::vector<std::int64_t> ids_of(const std::vector<domain::Pet>& pets) {
  std::vector<std::int64_t> ids;
  ids.reserve(pets.size());
  for (const auto& pet : pets) {
    ids.push_back(pet.id.value);
  }
  return ids;
}

// matching: the pets of `all` (ascending by id) that `status` selects, with id above `after`.
std::vector<domain::Pet> matching(const std::vector<domain::Pet>& all,
                                  std::optional<PetStatus> status, std::int64_t after = int64_min) {
  std::vector<domain::Pet> pets;
  for (const auto& pet : all) {
    if ((!status || pet.status == *status) && pet.id.value > after) {
      pets.push_back(pet);
    }
  }
  return pets;
}

// create_many: `count` pets whose statuses follow `pattern` round and round.
std::vector<domain::Pet> create_many(ports::PetRepository& repository, int count,
                                     const std::vector<PetStatus>& pattern) {
  std::vector<domain::Pet> pets;
  for (int i = 0; i < count; ++i) {
    const auto status = pattern[static_cast<std::size_t>(i) % pattern.size()];
    pets.push_back(create_pet(repository, new_pet("Pet", i, status)).value());
  }
  return pets;
}

ports::PetPage list(const ports::PetRepository& repository, std::optional<PetStatus> status,
                    std::optional<std::int64_t> after, std::int64_t limit) {
  std::optional<PetId> after_id;
  if (after) {
    after_id = PetId{*after};
  }
  return list_now(repository, ports::PetQuery{status, after_id, page_size(limit)}).value();
}

const std::vector<PetStatus> mixed{PetStatus::available, PetStatus::pending, PetStatus::sold,
                                   PetStatus::pending, PetStatus::available};

TEST_P(PetRepositoryContract, ListOfAnEmptyRepositoryIsEmpty) {
  for (const auto& status : every_filter) {
    const auto page = list(repository(), status, std::nullopt, 100);
    EXPECT_TRUE(page.pets.empty());
    EXPECT_FALSE(page.has_more);
  }
}

TEST_P(PetRepositoryContract, ListIsAscendingAndWithinTheLimit) {
  const auto all = create_many(repository(), 10, mixed);
  const auto first = list(repository(), std::nullopt, std::nullopt, 3);
  EXPECT_EQ(ids_of(first.pets), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(first.pets, (std::vector<domain::Pet>(all.begin(), all.begin() + 3)));
  EXPECT_TRUE(first.has_more);
  for (const std::int64_t limit : {10, 11, 100}) {
    const auto page = list(repository(), std::nullopt, std::nullopt, limit);
    EXPECT_EQ(page.pets, all) << "limit " << limit;
    EXPECT_FALSE(page.has_more) << "limit " << limit;
  }
  const auto nine = list(repository(), std::nullopt, std::nullopt, 9);
  EXPECT_EQ(nine.pets.size(), 9U);
  EXPECT_TRUE(nine.has_more);
}

TEST_P(PetRepositoryContract, ListDefaultsToTwentyPets) {
  (void)create_many(repository(), 21, mixed);
  const auto page = list_now(repository(), ports::PetQuery{}).value();
  EXPECT_EQ(page.pets.size(), 20U);
  EXPECT_TRUE(page.has_more);
}

TEST_P(PetRepositoryContract, ListReturnsOnlyTheFilteredStatus) {
  const auto all = create_many(repository(), 17, mixed);
  for (const auto status : domain::all_pet_statuses) {
    const auto page = list(repository(), status, std::nullopt, 100);
    EXPECT_EQ(page.pets, matching(all, status)) << status;
    EXPECT_FALSE(page.has_more);
  }
}

TEST_P(PetRepositoryContract, ListOfAStatusNoPetHasIsEmpty) {
  (void)create_many(repository(), 5, {PetStatus::available, PetStatus::sold});
  const auto page = list(repository(), PetStatus::pending, std::nullopt, 1);
  EXPECT_TRUE(page.pets.empty());
  EXPECT_FALSE(page.has_more);
}

// has_more looks at matching pets only: later pets of another status do not count.
TEST_P(PetRepositoryContract, HasMoreIsTrueExactlyWhenMoreMatchesExist) {
  // ids: 1 available, 2 pending, 3 sold, 4 pending, 5 available, 6 available, 7 sold
  (void)create_many(repository(), 7,
                    {PetStatus::available, PetStatus::pending, PetStatus::sold, PetStatus::pending,
                     PetStatus::available, PetStatus::available, PetStatus::sold});
  EXPECT_FALSE(list(repository(), PetStatus::pending, std::nullopt, 2).has_more);
  EXPECT_TRUE(list(repository(), PetStatus::pending, std::nullopt, 1).has_more);
  EXPECT_FALSE(list(repository(), PetStatus::pending, 2, 1).has_more);
  EXPECT_FALSE(list(repository(), PetStatus::available, 1, 2).has_more);
  EXPECT_TRUE(list(repository(), PetStatus::available, 1, 1).has_more);
  EXPECT_FALSE(list(repository(), std::nullopt, 5, 2).has_more);
  EXPECT_TRUE(list(repository(), std::nullopt, 4, 2).has_more);
  EXPECT_EQ(ids_of(list(repository(), PetStatus::sold, 3, 5).pets), std::vector<std::int64_t>{7});
}

TEST_P(PetRepositoryContract, ListStartsAfterTheGivenId) {
  const auto all = create_many(repository(), 8, mixed);
  for (const auto& status : every_filter) {
    for (const std::int64_t after : {int64_min, std::int64_t{-5}, std::int64_t{0}, std::int64_t{1},
                                     std::int64_t{3}, std::int64_t{7}}) {
      const auto page = list(repository(), status, after, 100);
      EXPECT_EQ(page.pets, matching(all, status, after)) << "after " << after;
      EXPECT_FALSE(page.has_more);
    }
  }
}

TEST_P(PetRepositoryContract, ListPastTheEndIsEmpty) {
  (void)create_many(repository(), 4, mixed);
  for (const auto& status : every_filter) {
    for (const std::int64_t after : {std::int64_t{4}, std::int64_t{5}, int64_max}) {
      const auto page = list(repository(), status, after, 100);
      EXPECT_TRUE(page.pets.empty()) << "after " << after;
      EXPECT_FALSE(page.has_more) << "after " << after;
    }
  }
}

// The pages `list_all` follows (each `after` the previous page's last id) visit every
// matching pet exactly once, in order, whatever the limit.
TEST_P(PetRepositoryContract, FollowingPagesVisitsEveryMatchingPetOnce) {
  const auto all =
      create_many(repository(), 23,
                  {PetStatus::pending, PetStatus::available, PetStatus::sold, PetStatus::sold,
                   PetStatus::pending, PetStatus::sold, PetStatus::available});
  for (const auto& status : every_filter) {
    for (const std::int64_t limit : {1, 2, 3, 5, 7, 23, 100}) {
      EXPECT_EQ(list_all(repository(), status, limit), matching(all, status)) << "limit " << limit;
    }
  }
}

}  // namespace
}  // namespace petstore::tests
