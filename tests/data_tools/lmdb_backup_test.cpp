// backup_lmdb_store: the copy opens as a store with the same pets, ids and idempotency records;
// the output directory must be new or empty; a data dir without a store is refused.

#include <fstream>
#include <optional>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "adapters/storage/lmdb/lmdb_test_support.hpp"
#include "ports/pet_repository_contract.hpp"

#include "data_tools_support.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;
using adapters::storage::lmdb::backup_lmdb_store;

TEST(LmdbBackup, TheCopyIsAStoreWithTheSamePetsIdsAndIdempotencyRecords) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  const ports::IdempotencyKey key{"key-1", "retry-1"};
  std::optional<domain::Pet> remembered;
  {
    const auto repository = open_repository(options);
    for (int i = 0; i < 300; ++i) {
      (void)create_pet(*repository, new_pet("pet " + std::to_string(i))).value();
    }
    remembered = create_pet(*repository, new_pet("once"), key).value();
  }
  const fs::path out = temp.path() / "backup";
  const auto report = backup_lmdb_store(options, out);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->bytes, fs::file_size(out / "data.mdb"));
  EXPECT_EQ(mode_of(out), 0700U);
  EXPECT_EQ(mode_of(out / "data.mdb"), 0600U);
  EXPECT_EQ(exported(options_for(out)), exported(options));

  const auto restored = open_repository(options_for(out));
  expect_consistent_store(*restored);
  EXPECT_EQ(create_pet(*restored, new_pet("once"), key).value(), *remembered);  // a replay
  EXPECT_EQ(create_pet(*restored, new_pet("new")).value().id.value, remembered->id.value + 1);
}

TEST(LmdbBackup, CompactionLeavesOutFreedPages) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  // Many small transactions leave free pages behind in the source file.
  {
    const auto repository = open_repository(options);
    for (int i = 0; i < 200; ++i) {
      (void)create_pet(*repository, new_pet(std::string(150, 'x'))).value();
    }
  }
  ASSERT_TRUE(backup_lmdb_store(options, temp.path() / "b"));
  EXPECT_LT(fs::file_size(temp.path() / "b" / "data.mdb"), fs::file_size(temp.path() / "data.mdb"));
}

TEST(LmdbBackup, AnEmptyExistingDirIsUsed) {
  const TempDir temp;
  const TempDir out;
  ASSERT_TRUE(import_into(options_for(temp.path()), sample_pets(10)));
  ASSERT_TRUE(backup_lmdb_store(options_for(temp.path()), out.path()));
  EXPECT_EQ(exported(options_for(out.path())), sample_pets(10));
}

TEST(LmdbBackup, ANonEmptyOrNonDirectoryOutputIsRefusedAndLeftAlone) {
  const TempDir temp;
  const auto options = options_for(temp.path());
  ASSERT_TRUE(import_into(options, sample_pets(3)));
  const fs::path busy = temp.path() / "busy";
  fs::create_directory(busy);
  std::ofstream(busy / "note") << "keep me";
  const auto refused = backup_lmdb_store(options, busy);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, domain::ErrorCode::invalid_argument);
  EXPECT_EQ(
      refused.error().message,
      "backup dir " + busy.string() + " is not empty; a backup goes into a new or empty directory");
  EXPECT_EQ(std::distance(fs::directory_iterator(busy), fs::directory_iterator()), 1);

  const auto file = backup_lmdb_store(options, busy / "note");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message, "backup dir " + (busy / "note").string() + " is not a directory");

  // The data dir itself is not empty either: a backup never writes over its source.
  EXPECT_FALSE(backup_lmdb_store(options, temp.path()));
  EXPECT_EQ(exported(options), sample_pets(3));
}

TEST(LmdbBackup, AMissingParentIsAnErrorAndNothingIsCreated) {
  const TempDir temp;
  ASSERT_TRUE(import_into(options_for(temp.path()), sample_pets(3)));
  const fs::path out = temp.path() / "no" / "such" / "dir";
  const auto refused = backup_lmdb_store(options_for(temp.path()), out);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "backup dir " + out.string() + " cannot be created: No such file or directory");
  EXPECT_FALSE(fs::exists(temp.path() / "no"));
}

TEST(LmdbBackup, ADataDirWithoutAStoreIsRefused) {
  const TempDir temp;
  const auto missing = backup_lmdb_store(options_for(temp.path() / "typo"), temp.path() / "out");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "data dir " + (temp.path() / "typo").string() + " does not exist");
  EXPECT_FALSE(fs::exists(temp.path() / "typo"));
  EXPECT_FALSE(fs::exists(temp.path() / "out"));
}

}  // namespace
}  // namespace petstore::tests
