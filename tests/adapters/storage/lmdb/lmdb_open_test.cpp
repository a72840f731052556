// Start-up of the LMDB repository: what it makes of the data dir it is given, and the one-line
// errors an operator sees when it cannot use it.

#include <filesystem>
#include <fstream>
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

TEST(LmdbOpen, RefusesAnotherSchemaVersion) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));  // writes schema version 1, then closes
  put_raw(temp.path(), "meta", "schema_version", big_endian(2));
  const auto error = open_error(temp.path());
  EXPECT_EQ(error.message, "data dir " + temp.path().string() +
                               " was written with schema version 2; this build reads version 1");
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
