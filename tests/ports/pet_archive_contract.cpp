// Contract cases for PetArchive: reads in id order from a snapshot that a sink may stop, writes
// that keep ids, never overwrite, are all or nothing, and move the next id of creates.

#include "ports/pet_archive_contract.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/complete_read.hpp"

namespace petstore::tests {
namespace {

using domain::PetStatus;
using Pets = std::vector<domain::Pet>;

constexpr std::int64_t max_id = std::numeric_limits<std::int64_t>::max();

domain::Pet stored(std::int64_t id, std::string_view name,
                   PetStatus status = PetStatus::available) {
  return domain::with_id(domain::PetId{id}, new_pet(name, id % 7 - 3, status));
}

// read_all: every pet the archive reads; the read must succeed and be complete.
Pets read_all(const ports::PetArchive& archive) {
  return collect_complete_read([&](const auto& sink) { return archive.read_all(sink); });
}

// write_all: the archive's report; the call itself must succeed.
ports::ArchiveWriteReport write_all(ports::PetArchive& archive, const Pets& pets) {
  auto report = archive.write_all(pets, nullptr);
  if (!report) {  // the adapter's own words too, so that a failure says what went wrong
    throw std::runtime_error(report.error().message + " (" + report.error().detail + ")");
  }
  return *report;
}

Pets by_id(Pets pets) {
  std::sort(pets.begin(), pets.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return pets;
}

TEST_P(PetArchiveContract, AFreshStoreReadsAsEmpty) { EXPECT_TRUE(read_all(archive()).empty()); }

TEST_P(PetArchiveContract, WrittenPetsReadBackInIdOrderWhateverTheOrderWritten) {
  const Pets pets{stored(9, "Rex", PetStatus::sold), stored(2, "\u732B"),
                  stored(500, "\U0001F415 Bruno", PetStatus::pending), stored(1, " padded "),
                  stored(77, "Fido", PetStatus::sold)};
  const auto report = write_all(archive(), pets);
  EXPECT_FALSE(report.conflict);
  EXPECT_EQ(report.next_id, 501U);
  EXPECT_EQ(read_all(archive()), by_id(pets));
}

TEST_P(PetArchiveContract, WrittenPetsAreSeenByGetAndListOfEachStatus) {
  const Pets pets{stored(4, "a", PetStatus::sold), stored(8, "b", PetStatus::pending),
                  stored(2, "c", PetStatus::sold), stored(6, "d")};
  ASSERT_FALSE(write_all(archive(), pets).conflict);
  for (const auto& pet : pets) {
    EXPECT_EQ(get_now(repository(), pet.id).value(), pet);
  }
  EXPECT_EQ(list_all(repository(), std::nullopt, 3), by_id(pets));
  for (const auto status : domain::all_pet_statuses) {
    Pets expected;
    std::copy_if(pets.begin(), pets.end(), std::back_inserter(expected),
                 [&](const domain::Pet& pet) { return pet.status == status; });
    EXPECT_EQ(list_all(repository(), status, 1), by_id(expected)) << status;
  }
}

TEST_P(PetArchiveContract, AReadIncludesCreatedPets) {
  const Pets created{create_pet(repository(), new_pet("one")).value(),
                     create_pet(repository(), new_pet("two", 5, PetStatus::sold)).value()};
  EXPECT_EQ(read_all(archive()), created);
}

TEST_P(PetArchiveContract, TheSinkCanStopARead) {
  Pets pets;
  for (std::int64_t id = 1; id <= 10; ++id) {
    pets.push_back(stored(id * 3, "pet " + std::to_string(id)));
  }
  ASSERT_FALSE(write_all(archive(), pets).conflict);
  Pets seen;
  const auto report = archive().read_all([&](const domain::Pet& pet) {
    seen.push_back(pet);
    return seen.size() < 3;
  });
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->complete);
  EXPECT_EQ(report->pets, 2U);
  EXPECT_EQ(seen, Pets(pets.begin(), pets.begin() + 3));
}

TEST_P(PetArchiveContract, CreatesContinueAboveTheWrittenIdsAndALowerIdKeepsTheNextId) {
  EXPECT_EQ(create_pet(repository(), new_pet("first")).value().id.value, 1);
  EXPECT_EQ(write_all(archive(), {stored(100, "high"), stored(40, "gap")}).next_id, 101U);
  EXPECT_EQ(write_all(archive(), {stored(50, "lower")}).next_id, 101U);
  EXPECT_EQ(create_pet(repository(), new_pet("next")).value().id.value, 101);
  EXPECT_EQ(get_now(repository(), domain::PetId{40}).value(), stored(40, "gap"));
}

// Pets written between and below stored ones take their places in every listing (unfiltered,
// by status, a page at a time), and a create after them still goes last.
TEST_P(PetArchiveContract, PetsWrittenBetweenStoredOnesListInIdOrder) {
  const Pets first{stored(10, "ten", PetStatus::sold), stored(20, "twenty"),
                   stored(30, "thirty", PetStatus::pending)};
  ASSERT_FALSE(write_all(archive(), first).conflict);
  const Pets between{stored(25, "b", PetStatus::sold), stored(5, "a"),
                     stored(15, "c", PetStatus::pending), stored(35, "d", PetStatus::sold)};
  ASSERT_FALSE(write_all(archive(), between).conflict);
  Pets all = first;
  all.insert(all.end(), between.begin(), between.end());
  all = by_id(all);
  EXPECT_EQ(list_all(repository(), std::nullopt, 2), all);
  EXPECT_EQ(read_all(archive()), all);
  for (const auto status : domain::all_pet_statuses) {
    Pets expected;
    std::copy_if(all.begin(), all.end(), std::back_inserter(expected),
                 [&](const domain::Pet& pet) { return pet.status == status; });
    EXPECT_EQ(list_all(repository(), status, 1), expected) << status;
  }
  const auto next = create_pet(repository(), new_pet("next", 1, PetStatus::sold)).value();
  EXPECT_EQ(next.id.value, 36);
  EXPECT_EQ(list_all(repository(), PetStatus::sold, 2).back(), next);
}

TEST_P(PetArchiveContract, AStoredIdIsAConflictAndNothingIsWritten) {
  const auto created = create_pet(repository(), new_pet("created")).value();  // id 1
  ASSERT_FALSE(write_all(archive(), {stored(5, "kept", PetStatus::sold)}).conflict);
  const Pets before = read_all(archive());

  EXPECT_EQ(
      write_all(archive(), {stored(2, "new"), stored(9, "new"), stored(5, "intruder")}).conflict,
      2U);
  EXPECT_EQ(write_all(archive(), {stored(3, "new"), stored(created.id.value, "intruder")}).conflict,
            1U);
  EXPECT_EQ(read_all(archive()), before);
  EXPECT_EQ(create_pet(repository(), new_pet("next")).value().id.value, 6);  // next id unchanged
  EXPECT_FALSE(get_now(repository(), domain::PetId{2}));
  EXPECT_EQ(list_all(repository(), PetStatus::available, 10).size(), 2U);  // no index entry left
}

TEST_P(PetArchiveContract, WritingTheLastIdLeavesNoIdForCreates) {
  EXPECT_EQ(write_all(archive(), {stored(max_id, "last")}).next_id, std::uint64_t{1} << 63U);
  const auto created = create_pet(repository(), new_pet("one more"));
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, domain::ErrorCode::unavailable);
  EXPECT_EQ(get_now(repository(), domain::PetId{max_id}).value(), stored(max_id, "last"));
}

TEST_P(PetArchiveContract, AnEmptyWriteChangesNothing) {
  (void)create_pet(repository(), new_pet("one")).value();
  (void)create_pet(repository(), new_pet("two")).value();
  const auto report = write_all(archive(), {});
  EXPECT_FALSE(report.conflict);
  EXPECT_EQ(report.next_id, 3U);
  EXPECT_EQ(create_pet(repository(), new_pet("three")).value().id.value, 3);
}

// Enough pets for an adapter that reports progress every few thousand to report more than once.
TEST_P(PetArchiveContract, ProgressEndsAtTheCount) {
  Pets pets;
  for (std::int64_t id = 10'000; id > 0; --id) {
    pets.push_back(stored(id, "pet", domain::all_pet_statuses[id % 3]));
  }
  std::vector<std::size_t> progress;
  const auto report =
      archive().write_all(pets, [&](std::size_t written) { progress.push_back(written); });
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back(), pets.size());
  EXPECT_LE(*std::max_element(progress.begin(), progress.end()), pets.size());
  EXPECT_EQ(read_all(archive()).size(), pets.size());
}

}  // namespace
}  // namespace petstore::tests
