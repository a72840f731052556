// Start-up of the LMDB repository: what it makes of the data dir it is given, and the one-line
// errors an operator sees when it cannot use it.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;
using domain::ErrorCode;

domain::Error open_error(const fs::path& dir) {
  auto opened = adapters::storage::lmdb::make_lmdb_pet_repository(options_for(dir));
  if (opened) {
    ADD_FAILURE() << "opened " << dir;
    return {};
  }
  EXPECT_EQ(opened.error().message.find('\n'), std::string::npos) << "one line";
  EXPECT_NE(opened.error().message.find(dir.string()), std::string::npos) << "names the dir";
  return opened.error();
}

fs::perms mode_of(const fs::path& path) { return fs::status(path).permissions() & fs::perms::all; }

TEST(LmdbOpen, CreatesAMissingDataDirAndItsParentsPrivate) {
  const TempDir temp;
  const fs::path dir = temp.path() / "a" / "b" / "data";
  {
    const auto repository = open_repository(options_for(dir));
    EXPECT_EQ(create_pet(*repository, new_pet("Rex")).value().id, domain::first_pet_id);
  }
  EXPECT_EQ(mode_of(dir), fs::perms::owner_all);
  EXPECT_EQ(mode_of(dir.parent_path()), fs::perms::owner_all);
  EXPECT_EQ(mode_of(temp.path() / "a"), fs::perms::owner_all);
  EXPECT_EQ(mode_of(dir / "data.mdb"), fs::perms::owner_read | fs::perms::owner_write);
}

TEST(LmdbOpen, RefusesAFileWhereTheDirShouldBe) {
  const TempDir temp;
  const fs::path file = temp.path() / "data";
  std::ofstream(file) << "not a directory";
  const auto error = open_error(file);
  EXPECT_EQ(error.code, ErrorCode::unavailable);
  EXPECT_NE(error.message.find("is not a directory"), std::string::npos) << error.message;
}

TEST(LmdbOpen, RefusesADirThatCannotBeCreated) {
  const TempDir temp;
  std::ofstream(temp.path() / "file") << "in the way";
  const auto error = open_error(temp.path() / "file" / "data");
  EXPECT_EQ(error.code, ErrorCode::unavailable);
  EXPECT_NE(error.message.find("cannot be created"), std::string::npos) << error.message;
}

TEST(LmdbOpen, RefusesADirThatIsNotWritable) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "root may write into any directory";
  }
  const TempDir temp;
  ASSERT_EQ(::chmod(temp.path().c_str(), 0500), 0);
  const auto error = open_error(temp.path());
  EXPECT_EQ(error.code, ErrorCode::unavailable);
  EXPECT_NE(error.message.find("is not writable"), std::string::npos) << error.message;
}

TEST(LmdbOpen, RefusesANewerSchemaVersionAndLeavesItAsItWas) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));  // writes schema version 3, then closes
  put_raw(temp.path(), "meta", "schema_version", big_endian(4));
  const auto error = open_error(temp.path());
  EXPECT_EQ(error.code, ErrorCode::unavailable);
  EXPECT_EQ(error.message, "data dir " + temp.path().string() +
                               " was written with schema version 4, newer than this build's"
                               " (version 3); run a newer petstore");
  EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(4));
}

// as_version_1: turns the store in `dir` back into what schema version 1 wrote: the same
// databases, with the version and (when given) the next id in meta.
void as_version_1(const fs::path& dir, std::optional<std::uint64_t> next_id) {
  put_raw(dir, "meta", "schema_version", big_endian(1));
  if (next_id) {
    put_raw(dir, "meta", "next_id", big_endian(*next_id));
  }
}

TEST(LmdbOpen, CreatesWriteNothingToMeta) {
  const TempDir temp;
  {
    const auto repository = open_repository(options_for(temp.path()));
    for (const char* name : {"Rex", "Tom", "Kit"}) {
      (void)create_pet(*repository, new_pet(name)).value();
    }
  }
  EXPECT_EQ(count_raw(temp.path(), "meta"), 1U) << "the schema version alone";
  EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(3));
}

TEST(LmdbOpen, MigratesAVersion1StoreForwardAndGoesOnFromItsLastId) {
  const TempDir temp;
  {
    const auto repository = open_repository(options_for(temp.path()));
    for (const char* name : {"Rex", "Tom", "Kit"}) {
      (void)create_pet(*repository, new_pet(name)).value();
    }
  }
  as_version_1(temp.path(), 4);
  {
    const auto repository = open_repository(options_for(temp.path()));
    EXPECT_EQ(create_pet(*repository, new_pet("Max")).value().id, domain::PetId{4});
    EXPECT_EQ(get_now(*repository, domain::PetId{3}).value().name.value(), "Kit");
    const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(10)});
    EXPECT_EQ(page.value().pets.size(), 4U);
  }
  EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(3));
  EXPECT_EQ(read_raw(temp.path(), "meta", "next_id"), std::nullopt);
}

TEST(LmdbOpen, MigratesAnEmptyVersion1Store) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));
  as_version_1(temp.path(), 1);
  const auto repository = open_repository(options_for(temp.path()));
  EXPECT_EQ(create_pet(*repository, new_pet("Rex")).value().id, domain::first_pet_id);
}

TEST(LmdbOpen, RefusesAVersion1StoreWhoseNextIdIsDamagedAndLeavesItAsItWas) {
  struct Case {
    std::optional<std::uint64_t> next_id;
    std::string reason;
  };
  for (const auto& [next_id, reason] :
       {Case{std::nullopt, "holds a damaged store (no next id)"},
        Case{2, "holds a damaged store (its next id is behind a stored pet)"}}) {
    const TempDir temp;
    {
      const auto repository = open_repository(options_for(temp.path()));
      (void)create_pet(*repository, new_pet("Rex")).value();
      (void)create_pet(*repository, new_pet("Tom")).value();
    }
    as_version_1(temp.path(), next_id);
    const auto error = open_error(temp.path());
    EXPECT_EQ(error.message, "data dir " + temp.path().string() + " " + reason);
    EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(1)) << "not migrated";
  }
}

TEST(LmdbOpen, RefusesAnLmdbStoreThatIsNotAPetstoreStore) {
  const TempDir temp;
  put_raw(temp.path(), "", "someone else's key", "value");
  const auto error = open_error(temp.path());
  EXPECT_NE(error.message.find("not a Petstore store"), std::string::npos) << error.message;
}

TEST(LmdbOpen, ADamagedRecordReadsAsInternal) {
  const TempDir temp;
  {
    const auto repository = open_repository(options_for(temp.path()));
    (void)create_pet(*repository, new_pet("Rex")).value();
  }
  // A record of a format this build does not know, then a name that is not valid UTF-8.
  for (const std::string& record :
       {std::string("\x07garbage"), std::string(1, '\x01') + big_endian(3) + '\x00' + "\xFF"}) {
    put_raw(temp.path(), "pets", big_endian(1), record);
    const auto repository = open_repository(options_for(temp.path()));
    const auto got = get_now(*repository, domain::first_pet_id);
    ASSERT_FALSE(got.has_value());
    EXPECT_EQ(got.error().code, ErrorCode::internal);
    const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(10)});
    ASSERT_FALSE(page.has_value());
    EXPECT_EQ(page.error().code, ErrorCode::internal);
    EXPECT_EQ(page.error().message.find(temp.path().string()), std::string::npos) << "internals";
  }
}

TEST(LmdbOpen, AnEmptyDataDirOpensAsAnEmptyStore) {
  const TempDir temp;
  const auto repository = open_repository(options_for(temp.path()));
  const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(10)});
  ASSERT_TRUE(page.has_value());
  EXPECT_TRUE(page->pets.empty());
  EXPECT_FALSE(page->has_more);
}

}  // namespace
}  // namespace petstore::tests
