// The pet record's integrity check (schema version 3): reads trust a record whose crc32c matches
// without validating it again, so every other change to its bytes must read as damage; and the
// migration that gives a version 2 store's records their checksum.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_checksum.hpp"
#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

using adapters::storage::lmdb::crc32c;
using adapters::storage::lmdb::crc32c_portable;
using domain::ErrorCode;

TEST(LmdbChecksum, IsCrc32cOnEveryPath) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283U);  // the check value of CRC-32C
  EXPECT_EQ(crc32c_portable("123456789"), 0xE3069283U);
  EXPECT_EQ(crc32c(""), 0U);
  std::string bytes(1, 'x');  // from its second byte on, so that no step reads aligned words
  for (int length = 0; length < 40; ++length) {  // every tail length after 8-byte steps
    const std::string_view tail = std::string_view(bytes).substr(1);
    EXPECT_EQ(crc32c(tail), crc32c_portable(tail)) << length;
#if defined(__x86_64__)
    // The inline path a page's loop takes, where the CPU has it (crc32c above may be it too).
    if (adapters::storage::lmdb::crc32c_has_hardware()) {
      EXPECT_EQ(adapters::storage::lmdb::crc32c_hardware(tail), crc32c_portable(tail)) << length;
    }
#endif
    bytes.push_back(static_cast<char>(length * 37 + 11));
  }
}

// expect_damaged: every read path of the store in `dir` reports its first pet as damaged.
void expect_damaged(const std::filesystem::path& dir) {
  {
    const auto repository = open_repository(options_for(dir));
    const auto got = get_now(*repository, domain::first_pet_id);
    ASSERT_FALSE(got.has_value()) << got->name.value();
    EXPECT_EQ(got.error().code, ErrorCode::internal);
    const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(10)});
    ASSERT_FALSE(page.has_value());
    EXPECT_EQ(page.error().code, ErrorCode::internal);
    const auto by_status =
        list_now(*repository, {domain::PetStatus::available, std::nullopt, page_size(10)});
    ASSERT_FALSE(by_status.has_value());
    EXPECT_EQ(by_status.error().code, ErrorCode::internal);
  }
  // Export, the full check: the same damage stops it.
  const auto archive = adapters::storage::lmdb::make_lmdb_pet_archive(options_for(dir));
  const auto read = archive->read_all([](const domain::Pet&) { return true; });
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().code, ErrorCode::internal);
}

TEST(LmdbIntegrity, AnyChangedByteOfAStoredPetReadsAsDamaged) {
  const TempDir seeded;
  {
    const auto repository = open_repository(options_for(seeded.path()));
    (void)create_pet(*repository, new_pet("Rex", 7)).value();
  }
  const std::string record = read_raw(seeded.path(), "pets", big_endian(1)).value();
  // Each byte changed in turn, to a value that still makes a valid pet where one exists ('R' to
  // 'S', category 7 to 6, available to pending): only the checksum can tell. Then a shorter record.
  for (std::size_t at = 0; at <= record.size(); ++at) {
    const TempDir temp;
    {
      const auto repository = open_repository(options_for(temp.path()));
      (void)create_pet(*repository, new_pet("Rex", 7)).value();
    }
    std::string damaged = record;
    if (at == record.size()) {
      damaged.pop_back();
    } else {
      damaged[at] = static_cast<char>(damaged[at] ^ 1);
    }
    put_raw(temp.path(), "pets", big_endian(1), damaged);
    SCOPED_TRACE("byte " + std::to_string(at));
    expect_damaged(temp.path());
  }
}

// A first page starts from the database's first key (MDB_FIRST), so a record under an id no create
// writes (0) would lead it: it reads as damage, however sound its bytes, and is never served.
TEST(LmdbIntegrity, ARecordUnderIdZeroReadsAsDamaged) {
  const TempDir temp;
  {
    const auto repository = open_repository(options_for(temp.path()));
    (void)create_pet(*repository, new_pet("Rex", 7)).value();
  }
  put_raw(temp.path(), "pets", big_endian(0), read_raw(temp.path(), "pets", big_endian(1)).value());
  const auto repository = open_repository(options_for(temp.path()));
  const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(10)});
  ASSERT_FALSE(page.has_value());
  EXPECT_EQ(page.error().code, ErrorCode::internal);
  EXPECT_EQ(get_now(*repository, domain::first_pet_id).value().name.value(), "Rex");
}

// v2_record: a pet record as schema versions 1 and 2 wrote it: format 1, no checksum.
std::string v2_record(std::string_view name, std::uint64_t category, domain::PetStatus status) {
  return '\x01' + big_endian(category) + static_cast<char>(status) + std::string(name);
}

TEST(LmdbIntegrity, MigratesAVersion2StoreSoEveryRecordCarriesItsChecksum) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));  // the databases, then version 2 below
  constexpr std::uint64_t count = 3000;  // many pages, so that rewriting moves records between them
  std::vector<std::pair<std::string, std::string>> pets;
  std::vector<std::pair<std::string, std::string>> index;
  for (std::uint64_t id = 1; id <= count; ++id) {
    const auto status = id % 2 == 0 ? domain::PetStatus::sold : domain::PetStatus::available;
    pets.emplace_back(big_endian(id), v2_record("pet-" + std::to_string(id), id, status));
    index.emplace_back(static_cast<char>(status) + big_endian(id), "");
  }
  put_raw_all(temp.path(), "pets", pets);
  put_raw_all(temp.path(), "pets_by_status", index);
  put_raw(temp.path(), "meta", "schema_version", big_endian(2));
  {
    const auto repository = open_repository(options_for(temp.path()));
    const auto all = list_now(*repository, {std::nullopt, std::nullopt, page_size(100)}).value();
    ASSERT_EQ(all.pets.size(), 100U);
    EXPECT_EQ(all.pets[41].name.value(), "pet-42");
    EXPECT_EQ(all.pets[41].category_id.value, 42);
    EXPECT_EQ(all.pets[41].status, domain::PetStatus::sold);
    const auto last = get_now(*repository, domain::PetId{count}).value();
    EXPECT_EQ(last.name.value(), "pet-" + std::to_string(count));
    EXPECT_EQ(create_pet(*repository, new_pet("Max")).value().id, domain::PetId{count + 1});
  }
  EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(3));
  EXPECT_EQ(count_raw(temp.path(), "pets"), count + 1);
  for (const std::uint64_t id : {std::uint64_t{1}, count / 2, count}) {
    EXPECT_EQ(read_raw(temp.path(), "pets", big_endian(id)).value().front(), '\x02') << id;
  }
}

TEST(LmdbIntegrity, AVersion2RecordThatWasDamagedStaysDamagedAfterTheMigration) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));
  put_raw(temp.path(), "pets", big_endian(1), v2_record("\xFF", 3, domain::PetStatus::available));
  put_raw(temp.path(), "pets_by_status",
          static_cast<char>(domain::PetStatus::available) + big_endian(1), "");
  put_raw(temp.path(), "meta", "schema_version", big_endian(2));
  expect_damaged(temp.path());  // opening migrates; the record is left as it was
  EXPECT_EQ(read_raw(temp.path(), "meta", "schema_version"), big_endian(3));
}

TEST(LmdbIntegrity, AMigrationThatOutgrowsTheMapGrowsIt) {
  const TempDir temp;
  (void)open_repository(options_for(temp.path()));  // a map the raw writes below fit in
  auto options = tiny_map();
  options.data_dir = temp.path();
  std::vector<std::pair<std::string, std::string>> pets;
  for (std::uint64_t id = 1; id <= 2000; ++id) {
    pets.emplace_back(big_endian(id),
                      v2_record("pet-" + std::to_string(id), id, domain::PetStatus::available));
  }
  put_raw_all(temp.path(), "pets", pets);
  put_raw(temp.path(), "meta", "schema_version", big_endian(2));
  const auto repository = open_repository(options);
  EXPECT_EQ(get_now(*repository, domain::PetId{2000}).value().name.value(), "pet-2000");
}

}  // namespace
}  // namespace petstore::tests
