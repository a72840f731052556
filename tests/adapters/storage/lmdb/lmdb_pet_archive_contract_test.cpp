// The LMDB archive against the shared PetArchive contract suite, on a fresh store per case. LMDB
// forbids two handles on one environment in a process, so the harness closes the repository
// before the archive is used (the archive opens the store per call) and reopens it after.

#include <memory>

#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "ports/pet_archive_contract.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

class LmdbArchiveHarness final : public ArchiveHarness {
 public:
  explicit LmdbArchiveHarness(adapters::storage::lmdb::LmdbOptions options)
      : options_(std::move(options)) {
    options_.data_dir = dir_.path();
    archive_ = adapters::storage::lmdb::make_lmdb_pet_archive(options_);
    repository_ = open_repository(options_);  // the store exists, empty, as a service left it
  }

  [[nodiscard]] ports::PetArchive& archive() override {
    repository_.reset();
    return *archive_;
  }

  [[nodiscard]] ports::PetRepository& repository() override {
    if (!repository_) {
      repository_ = open_repository(options_);
    }
    return *repository_;
  }

 private:
  TempDir dir_;
  adapters::storage::lmdb::LmdbOptions options_;
  std::unique_ptr<ports::PetRepository> repository_;
  std::unique_ptr<ports::PetArchive> archive_;
};

INSTANTIATE_TEST_SUITE_P(
    Lmdb, PetArchiveContract,
    testing::Values(ArchiveUnderTest{"lmdb",
                                     [] {
                                       return std::make_unique<LmdbArchiveHarness>(
                                           adapters::storage::lmdb::LmdbOptions{});
                                     }},
                    ArchiveUnderTest{
                        "lmdb_tiny_map",
                        [] { return std::make_unique<LmdbArchiveHarness>(tiny_map()); }}),
    archive_name);

}  // namespace
}  // namespace petstore::tests
