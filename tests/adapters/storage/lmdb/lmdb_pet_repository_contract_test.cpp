// The LMDB repository against the shared PetRepository contract suite: a fresh data dir per
// case, and a reopen that really closes the environment and opens it again.

#include <memory>

#include "ports/pet_repository_contract.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

class LmdbHarness final : public RepositoryHarness {
 public:
  explicit LmdbHarness(adapters::storage::lmdb::LmdbOptions options)
      : options_(std::move(options)) {
    options_.data_dir = dir_.path();
    repository_ = open_repository(options_);
  }

  [[nodiscard]] ports::PetRepository& repository() override { return *repository_; }

  bool reopen() override {
    repository_.reset();  // closes the environment before it is opened again
    repository_ = open_repository(options_);
    return true;
  }

 private:
  TempDir dir_;
  adapters::storage::lmdb::LmdbOptions options_;
  std::unique_ptr<ports::PetRepository> repository_;
};

INSTANTIATE_TEST_SUITE_P(
    Lmdb, PetRepositoryContract,
    testing::Values(AdapterUnderTest{"lmdb",
                                     [] {
                                       return std::make_unique<LmdbHarness>(
                                           adapters::storage::lmdb::LmdbOptions{});
                                     }},
                    AdapterUnderTest{"lmdb_tiny_map",
                                     [] { return std::make_unique<LmdbHarness>(tiny_map()); }}),
    adapter_name);

}  // namespace
}  // namespace petstore::tests
