// ExportPets and ImportPets over the LMDB archive, on stores this process owns: round trips, ids
// and the next id, all-or-nothing refusals, map growth, and the data dir checks.

#include <limits>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "adapters/jsonl/jsonl_pet_reader.hpp"
#include "adapters/storage/lmdb/lmdb_test_support.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

#include "data_tools_support.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;

using Pets = std::vector<domain::Pet>;

constexpr std::int64_t max_id = std::numeric_limits<std::int64_t>::max();

void import_ok(const adapters::storage::lmdb::LmdbOptions& options,
               const std::vector<domain::Pet>& pets) {
  const auto report = import_into(options, pets);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->pets, pets.size());
}

std::vector<domain::Pet> shuffled(std::vector<domain::Pet> pets) {
  std::mt19937 random(7);
  std::shuffle(pets.begin(), pets.end(), random);
  return pets;
}

TEST(LmdbExportImport, TenThousandPetsRoundTripExactlyThroughJsonLines) {
  const TempDir first;
  const TempDir second;
  const auto pets = sample_pets(10'000);
  import_ok(options_for(first.path()), shuffled(pets));  // inserted out of order
  const std::string text = jsonl(exported(options_for(first.path())));
  EXPECT_EQ(text, jsonl(pets));  // id order, every byte as written

  std::istringstream in(text);
  const auto lines = adapters::jsonl::read_pet_lines(in);
  ASSERT_TRUE(lines);
  ASSERT_EQ(lines->problem_count, 0U);
  import_ok(options_for(second.path()), lines->pets);  // in order: appended
  EXPECT_EQ(jsonl(exported(options_for(second.path()))), text);

  const auto repository = open_repository(options_for(second.path()));
  EXPECT_EQ(expect_consistent_store(*repository), pets);
}

TEST(LmdbExportImport, AnEmptyStoreExportsNothing) {
  const TempDir temp;
  { const auto repository = open_repository(options_for(temp.path())); }
  EXPECT_TRUE(exported(options_for(temp.path())).empty());
}

TEST(LmdbExportImport, TheSinkCanStopAnExport) {
  const TempDir temp;
  import_ok(options_for(temp.path()), sample_pets(10));
  std::size_t seen = 0;
  const auto report =
      export_from(options_for(temp.path()), [&](const domain::Pet&) { return ++seen < 3; });
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->complete);
  EXPECT_EQ(report->pets, 2U);
  EXPECT_EQ(seen, 3U);
}

TEST(LmdbExportImport, CreatesContinueAboveTheImportedIds) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  {
    const auto repository = open_repository(options);
    ASSERT_EQ(create_pet(*repository, new_pet("first")).value().id.value, 1);
  }
  const auto report = import_into(options, Pets{pet(100, "imported", 1), pet(40, "gap", 2)});
  ASSERT_TRUE(report);
  EXPECT_EQ(report->next_id, 101U);
  // A lower id than the next one does not move it back.
  ASSERT_EQ(import_into(options, Pets{pet(50, "lower", 3)}).value().next_id, 101U);
  const auto repository = open_repository(options);
  EXPECT_EQ(create_pet(*repository, new_pet("next")).value().id.value, 101);
  EXPECT_EQ(get_now(*repository, domain::PetId{40}).value(), pet(40, "gap", 2));
  expect_consistent_store(*repository);
}

TEST(LmdbExportImport, ImportingTheLastIdLeavesNoIdForCreates) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  ASSERT_EQ(import_into(options, Pets{pet(max_id, "last", 1)}).value().next_id,
            std::uint64_t{1} << 63U);
  const auto repository = open_repository(options);
  const auto created = create_pet(*repository, new_pet("one more"));
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, domain::ErrorCode::unavailable);
  EXPECT_EQ(get_now(*repository, domain::PetId{max_id}).value(), pet(max_id, "last", 1));
}

TEST(LmdbExportImport, AnIdAlreadyStoredFailsTheWholeImport) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  import_ok(options, {pet(5, "kept", 1, domain::PetStatus::sold)});
  const std::vector<domain::Pet> batch{pet(1, "new", 1), pet(2, "new", 1),
                                       pet(5, "intruder", 9, domain::PetStatus::pending)};
  std::optional<std::size_t> conflict;
  application::ImportCallbacks callbacks;
  callbacks.refused = [&](std::size_t index) { conflict = index; };
  const auto report = import_into(options, batch, callbacks);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, domain::ErrorCode::conflict);
  EXPECT_EQ(report.error().message, "id 5 is already in the store");
  EXPECT_EQ(conflict, 2U);
  EXPECT_EQ(exported(options), (std::vector{pet(5, "kept", 1, domain::PetStatus::sold)}));
  const auto repository = open_repository(options);
  EXPECT_EQ(create_pet(*repository, new_pet("next")).value().id.value, 6);  // next id unchanged
  expect_consistent_store(*repository);
}

TEST(LmdbExportImport, AnIdBelowOneIsRefusedBeforeAnythingIsWritten) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  const auto report = import_into(options, Pets{pet(1, "fine", 1), pet(0, "zero", 1)});
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, domain::ErrorCode::invalid_argument);
  EXPECT_EQ(report.error().message, "id must be at least 1, not 0");
  EXPECT_FALSE(fs::exists(temp.path() / "data.mdb"));
}

TEST(LmdbExportImport, AnImportLargerThanTheMapGrowsItAndReportsProgress) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.initial_map_size = adapters::storage::lmdb::mebibyte;
  options.map_growth_step = adapters::storage::lmdb::mebibyte;
  const auto pets = shuffled(sample_pets(20'000));
  std::vector<std::size_t> progress;
  application::ImportCallbacks callbacks;
  callbacks.progress = [&](std::size_t written) { progress.push_back(written); };
  const auto report = import_into(options, pets, callbacks);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(progress.back(), pets.size());
  // The map was full at least once: the transaction started over, and so did its progress.
  EXPECT_FALSE(std::is_sorted(progress.begin(), progress.end()));
  EXPECT_EQ(exported(options).size(), pets.size());
}

TEST(LmdbExportImport, ImportCreatesAMissingDataDir) {
  const TempDir temp;
  const auto options = options_for(temp.path() / "new" / "store");
  import_ok(options, {pet(3, "Rex", 1)});
  EXPECT_EQ(exported(options), (std::vector{pet(3, "Rex", 1)}));
}

TEST(LmdbExportImport, ExportRefusesADirWithoutAStoreAndCreatesNothing) {
  const TempDir temp;
  const auto sink = [](const domain::Pet&) { return true; };
  const auto missing = export_from(options_for(temp.path() / "typo"), sink);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "data dir " + (temp.path() / "typo").string() + " does not exist");
  EXPECT_FALSE(fs::exists(temp.path() / "typo"));

  const auto empty = export_from(options_for(temp.path()), sink);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message,
            "data dir " + temp.path().string() + " holds no store (no data.mdb)");
  EXPECT_TRUE(fs::is_empty(temp.path()));
}

}  // namespace
}  // namespace petstore::tests
